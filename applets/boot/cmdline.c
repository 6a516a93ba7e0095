// SPDX-License-Identifier: GPL-2.0
/*
 * cmdline: the kernel command line as initrd's /init reads it, each word
 * as the kernel's own parsers take it (cmdline_next(), the __setup()
 * handlers of init/do_mounts*.c).  A value the kernel would refuse is
 * ignored with a note (b->note), as the kernel ignores it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/kit.h"
#include "boot/boot.h"

/* Base 0, as the kernel reads rootdelay=, rootwait= and ramdisk_start=;
 * bad when value is not a number from 0 to max. */
static long cmdline_number(const struct boot *b, const char *name,
			   const char *value, long bad, long max)
{
	unsigned long n;

	if (parse_ulong(value, 0, 0, max, &n)) {
		kit_note(b->note, "ignoring %s=%s: not a number from 0 to %ld",
			 name, value, max);
		return bad;
	}
	return n;
}

/*
 * Does rootwait=N set a timeout?  Since 6.6, commit 3b0086ced97f ("init:
 * Add support for rootwait timeout parameter", rootwait_timeout_setup()).
 * Before, rootwait_setup() refused a value ("if (*str) return 0"), and
 * the kernel gave the unknown word to init: no wait at all.
 */
static bool rootwait_has_timeout(void)
{
	int v[3], n = running_version(v);

	return n < 2 || v[0] > 6 || (v[0] == 6 && v[1] >= 6);
}

/* rootwait=N as rootwait_timeout_setup(): N s, 0 none; a bad N, for ever. */
static void rootwait_timeout(struct boot *b, const char *value)
{
	if (!rootwait_has_timeout()) {
		kit_note(b->note, "ignoring rootwait=%s: a value needs Linux "
			 "6.6; give rootwait alone to wait", value);
		return;
	}
	b->root_wait = cmdline_number(b, "rootwait", value, -1, LONG_MAX);
}

/*
 * One parameter of the command line.  ro, rw and rootwait take no value
 * (readonly(), readwrite(), rootwait_setup(): "if (*str) return 0"); an
 * empty root= is none (prepare_namespace() reads saved_root_name only
 * when not empty).
 */
static void boot_param(struct boot *b, const char *word, char *value)
{
	if (!strcmp(word, "root") && value)
		b->root = *value ? value : NULL;
	else if (!strcmp(word, "rootfstype") && value)
		b->rootfstype = value;
	else if (!strcmp(word, "rootflags") && value)
		b->rootflags = value;
	else if (!strcmp(word, "init") && value)
		b->init = value;
	else if (!strcmp(word, "ro") && !value)
		b->rw = false;
	else if (!strcmp(word, "rw") && !value)
		b->rw = true;
	else if (!strcmp(word, "rootwait") && !value)
		b->root_wait = -1;
	else if (!strcmp(word, "rootwait"))
		rootwait_timeout(b, value);
	else if (!strcmp(word, "rootdelay") && value)
		b->rootdelay = cmdline_number(b, word, value, 0, LONG_MAX);
	else if (!strcmp(word, "ramdisk_start") && value)
		/* rd_image_start, an int (init/do_mounts_rd.c) */
		b->ramdisk_start = cmdline_number(b, word, value, 0, INT_MAX);
	else if (!strcmp(word, "noinitrd"))
		b->noinitrd = true;
	else if (!strcmp(word, "kit.image") && value)
		b->image = value;
	else if (!strcmp(word, "kit.shell"))
		b->shell = value ? value : "";
	else if (!strcmp(word, "kit.prompt"))
		b->prompt = true;
}

void boot_parse_cmdline(struct boot *b, const char *line)
{
	char *p, *param, *value;

	snprintf(b->cmdline, sizeof(b->cmdline), "%s", line);
	for (p = b->cmdline; (p = cmdline_next(p, &param, &value));)
		boot_param(b, param, value);
}
