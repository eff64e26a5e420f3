/* SPDX-License-Identifier: MIT */
/* log.h - one place for the daemon's messages.
 *
 * Errors are logged once, where the context (archive, member, object) is
 * known; callers further up only pass the negative errno on.  In the
 * foreground messages go to stderr, detached to syslog.
 */
#ifndef CCSFS_LOG_H
#define CCSFS_LOG_H

#include <stdbool.h>

void log_init(bool to_stderr);
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Tests silence the expected errors. */
void log_set_quiet(bool quiet);

#endif
