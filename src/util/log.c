/* SPDX-License-Identifier: MIT */
/* log.c - stderr in the foreground, syslog when detached. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>

#include "util/log.h"

static bool use_stderr = true;
static bool quiet;

void log_init(bool to_stderr)
{
	use_stderr = to_stderr;
	if (!to_stderr)
		openlog("ccsfs", LOG_PID, LOG_DAEMON);
}

void log_set_quiet(bool q)
{
	quiet = q;
}

static void log_v(int prio, const char *fmt, va_list ap)
{
	if (quiet)
		return;
	if (use_stderr) {
		char line[1024];
		vsnprintf(line, sizeof line, fmt, ap);
		/* One write per line, so threads do not interleave. */
		fprintf(stderr, "ccsfs: %s\n", line);
	} else {
		vsyslog(prio, fmt, ap);
	}
}

void log_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_v(LOG_ERR, fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	log_v(LOG_INFO, fmt, ap);
	va_end(ap);
}
