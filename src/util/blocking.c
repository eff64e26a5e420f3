/* SPDX-License-Identifier: MIT */
/* blocking.c - the hook a thread calls before it waits. */
#include "config.h"

#include <stdatomic.h>
#include <stddef.h>

#include "util/blocking.h"

typedef void (*hook_fn)(void);

static _Atomic(hook_fn) hook;

void blocking_set_hook(void (*fn)(void))
{
	atomic_store(&hook, fn);
}

void blocking_begins(void)
{
	hook_fn fn = atomic_load_explicit(&hook, memory_order_relaxed);
	if (fn)
		fn();
}
