/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One check() for the C unit tests (tests/X_unit.c): each prints
 * "PASS: X_unit: NAME" or "FAIL: X_unit: NAME", which tests/run counts,
 * and main() ends with "return unit_status();": 1 when one failed.
 */
#ifndef UNIT_H
#define UNIT_H

#include <stdbool.h>
#include <stdio.h>

/* glibc's, declared in <errno.h> only with _GNU_SOURCE: "X_unit". */
extern char *program_invocation_short_name;

static int unit_failed;

static void check(const char *name, bool ok)
{
	printf("%s: %s: %s\n", ok ? "PASS" : "FAIL",
	       program_invocation_short_name, name);
	fflush(stdout);
	if (!ok)
		unit_failed++;
}

static int unit_status(void)
{
	return unit_failed ? 1 : 0;
}

#endif
