/* SPDX-License-Identifier: MIT */
/* reason.c - writing a failure's reason. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/reason.h"

void reason_set(struct reason *r, const char *fmt, ...)
{
	if (!r)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->text, sizeof r->text, fmt, ap);
	va_end(ap);
}

const char *reason_or_errno(const struct reason *r, int rc)
{
	return reason_given(r) ? r->text : strerror(rc < 0 ? -rc : rc);
}
