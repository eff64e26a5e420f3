/* SPDX-License-Identifier: MIT */
/* reason.c - writing a failure's reason. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "util/reason.h"

void reason_set(char *why, size_t why_len, const char *fmt, ...)
{
	if (!why || !why_len)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(why, why_len, fmt, ap);
	va_end(ap);
}
