/* SPDX-License-Identifier: MIT */
/* check_report.c - what ccsfs-check found, as lines for people or as one
 * JSON object for scripts. */
#include "config.h"

#include <stdio.h>

#include "bin/check.h"

static unsigned long long get(const _Atomic uint64_t *v)
{
	return (unsigned long long)atomic_load(v);
}

void check_print_text(const struct check *c)
{
	for (size_t i = 0; i < c->nproblems; i++)
		printf("%s: %s\n", c->problems[i].path, c->problems[i].msg);
	printf("summary: members %llu, objects %llu, textures %llu, "
	       "models %llu, bytes %llu, failures %zu\n",
	       get(&c->members), get(&c->objects), get(&c->textures),
	       get(&c->models), get(&c->bytes), c->nproblems);
}

/* A JSON string: quotes, backslashes and control bytes escaped; the
 * tree's names are UTF-8 already. */
static void json_string(const char *s)
{
	putchar('"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			printf("\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", stdout);
		else if (*p == '\t')
			fputs("\\t", stdout);
		else if (*p < 0x20 || *p == 0x7f)
			printf("\\u%04x", *p);
		else
			putchar(*p);
	}
	putchar('"');
}

void check_print_json(const struct check *c, const char *source)
{
	fputs("{\"source\": ", stdout);
	json_string(source);
	fputs(", \"problems\": [", stdout);
	for (size_t i = 0; i < c->nproblems; i++) {
		fputs(i ? ",\n  {\"path\": " : "\n  {\"path\": ", stdout);
		json_string(c->problems[i].path);
		fputs(", \"message\": ", stdout);
		json_string(c->problems[i].msg);
		putchar('}');
	}
	printf("%s], \"summary\": {\"members\": %llu, \"objects\": %llu, "
	       "\"textures\": %llu, \"models\": %llu, \"files\": %llu, "
	       "\"bytes\": %llu, \"failures\": %zu}, \"ok\": %s}\n",
	       c->nproblems ? "\n" : "", get(&c->members), get(&c->objects),
	       get(&c->textures), get(&c->models), get(&c->files),
	       get(&c->bytes), c->nproblems, c->nproblems ? "false" : "true");
}
