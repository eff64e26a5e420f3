/* SPDX-License-Identifier: MIT */
/* pingpong.c - what waking a sleeping process costs on this machine.
 *
 * Every FUSE request the reader sends, it sleeps until the answer; the
 * answer wakes it.  No daemon, however fast, answers sooner than the
 * machine wakes a sleeper: this measures that, with no FUSE in it.  Two
 * processes pass one byte back and forth over two pipes; each pass
 * wakes the other.  Printed: the microseconds of one wake-up (half a
 * round trip) with the two on different CPUs and then both on one CPU,
 * each the best of five rounds, since another process may run between.
 * On a machine with one CPU the two figures are the same.
 *
 * Usage: bench/pingpong [ROUND_TRIPS]  (20000 by default)
 */
#include "config.h"

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set) < 0) {
		perror("pingpong: sched_setaffinity");
		exit(1);
	}
}

static void pass(int in, int out)
{
	char c = 0;
	ssize_t r = in >= 0 ? read(in, &c, 1) : 1;
	if (r == 0) {
		fprintf(stderr, "pingpong: the other process ended\n");
		exit(1);
	}
	if (r != 1 || (out >= 0 && write(out, &c, 1) != 1)) {
		perror("pingpong: pipe");
		exit(1);
	}
}

/* One round of n round trips, the child on cpu_b, this process on
 * cpu_a: microseconds a wake-up. */
static double round_us(long n, int cpu_a, int cpu_b)
{
	int there[2], back[2];
	if (pipe(there) < 0 || pipe(back) < 0) {
		perror("pingpong: pipe");
		exit(1);
	}
	pid_t child = fork();
	if (child < 0) {
		perror("pingpong: fork");
		exit(1);
	}
	/* Each keeps only its own ends, so that one that dies is an end of
	 * file to the other, not a wait for ever. */
	if (child == 0) {
		close(there[1]);
		close(back[0]);
		pin(cpu_b);
		for (long i = 0; i < n; i++)
			pass(there[0], back[1]);
		_exit(0);
	}
	close(there[0]);
	close(back[1]);
	pin(cpu_a);
	pass(-1, there[1]); /* the child is up and pinned: its first read */
	pass(back[0], -1);
	struct timespec s, e;
	clock_gettime(CLOCK_MONOTONIC, &s);
	for (long i = 1; i < n; i++) {
		pass(-1, there[1]);
		pass(back[0], -1);
	}
	clock_gettime(CLOCK_MONOTONIC, &e);
	waitpid(child, NULL, 0);
	close(there[1]);
	close(back[0]);
	double ns = (e.tv_sec - s.tv_sec) * 1e9 + (e.tv_nsec - s.tv_nsec);
	return ns / 1e3 / (2.0 * (n - 1));
}

static double best_us(long n, int cpu_a, int cpu_b)
{
	double best = 0;
	for (int i = 0; i < 5; i++) {
		double us = round_us(n, cpu_a, cpu_b);
		if (i == 0 || us < best)
			best = us;
	}
	return best;
}

int main(int argc, char **argv)
{
	signal(SIGPIPE, SIG_IGN); /* a write to an ended process: EPIPE */
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
	if (n < 2) {
		fprintf(stderr, "usage: pingpong [ROUND_TRIPS >= 2]\n");
		return 2;
	}
	/* The first two CPUs this process may run on (a container's cpuset
	 * need not start at 0); one alone serves as both. */
	cpu_set_t allowed;
	int cpu[2] = { -1, -1 };
	if (sched_getaffinity(0, sizeof allowed, &allowed) < 0) {
		perror("pingpong: sched_getaffinity");
		return 1;
	}
	for (int c = 0, k = 0; c < CPU_SETSIZE && k < 2; c++)
		if (CPU_ISSET(c, &allowed))
			cpu[k++] = c;
	if (cpu[1] < 0)
		cpu[1] = cpu[0];
	printf("two CPUs %.2f us\n", best_us(n, cpu[0], cpu[1]));
	printf("one CPU %.2f us\n", best_us(n, cpu[0], cpu[0]));
	return 0;
}
