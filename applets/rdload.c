// SPDX-License-Identifier: GPL-2.0
/*
 * rdload: load a RAM-disk image as the kernel's rd_load_image() does, from
 * userspace: identify it at the start block the way identify_ramdisk_image()
 * does, decompress whatever the kernel decompresses, write it into /dev/ramN
 * (or any block device), and bring back multi-volume images (Linux 5.9 took
 * them out of the kernel, commit c8376994c86c).
 *
 * The RAM-disk engine (rd.h) reads the volumes, identifies, decompresses
 * and loads; this is the command around it: the options, the prompt, the
 * progress line, the messages.
 */
#include <limits.h>
#include <stdbool.h>
#include <unistd.h>

#include "core/kit.h"
#include "rd/rd.h"

static const char usage[] =
"Usage: rdload -i [-s START] IMAGE...\n"
"       rdload [-s START] [-o TARGET] [-f] [-q] [--verify] [--prompt]\n"
"              IMAGE...\n"
"Find a RAM-disk image as the kernel does (gzip, bzip2, lzma, xz, lzo, lz4,\n"
"zstd; romfs, cramfs, squashfs, minix, ext2/3/4) and load it into a RAM disk.\n"
"Several IMAGEs are volumes of one image, read one after another.\n"
"\n"
"  -i          identify only: what the kernel finds, and the image's size\n"
"  -s START    the image starts at block START (1 KiB blocks) of the first\n"
"              IMAGE, as ramdisk_start= (default 0)\n"
"  -o TARGET   block device to load (default /dev/ram0; a missing /dev/ramN\n"
"              is created as the kernel does: mknod b 1 N)\n"
"  -f          TARGET may be a regular file: created when missing, written\n"
"              from its start, never truncated\n"
"  -q          quiet: errors only\n"
"  --verify    read TARGET back and compare\n"
"  --prompt    wait for ENTER before each further volume (a changed medium)\n"
"Reports go to stdout; errors, prompts and progress to stderr.\n";

KIT_APPLET(rdload, "load a RAM-disk image into /dev/ramN as the kernel does",
	   usage);

struct options {
	unsigned long start;
	const char *target;
	bool identify, allow_file, quiet, verify, prompt;
};

/*
 * What goes with what: -i loads nothing (no -o, -f, --verify or
 * --prompt), -f names -o's file, and --prompt waits between volumes.
 * An option that would do nothing is refused, not ignored.
 */
static void check_options(const struct options *o, int volumes)
{
	struct kit_err e;

	if (opt_exclusive("io", &e) || opt_exclusive("if", &e) ||
	    opt_exclusive("iV", &e) || opt_exclusive("iP", &e))
		die_err(&e);
	if (o->allow_file && !o->target)
		die_usage("-f goes with -o TARGET: it lets TARGET be a file");
	if (o->prompt && volumes < 2)
		die_usage("--prompt goes with several IMAGEs: it waits before "
			  "each further volume");
}

static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "verify", no_argument, NULL, 'V' },
		{ "prompt", no_argument, NULL, 'P' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long start;
	int c;

	while ((c = kit_getopt(argc, argv, "is:o:fq", longopts)) != -1) {
		switch (c) {
		case 'i':
			o->identify = true;
			break;
		case 'f':
			o->allow_file = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'V':
			o->verify = true;
			break;
		case 'P':
			o->prompt = true;
			break;
		case 'o':
			o->target = optarg;
			break;
		case 's':
			/* The kernel's ramdisk_start= reads it as %i does. */
			if (parse_ulong(optarg, 0, 0, INT_MAX, &start))
				die_usage(RD_START_BAD, INT_MAX, optarg);
			o->start = start;
			break;
		}
	}
	if (optind == argc)
		die_usage("no IMAGE given (see rdload --help)");
	check_options(o, argc - optind);
	return optind;
}

/* Progress on a terminal, cleared before anything else is printed. */
static bool progress_shown;

static void clear_progress(void)
{
	if (progress_shown)
		fputs("\r\033[K", stderr);
}

/* On a terminal: how far the load is. */
static void show_progress(struct rd_job *job, uint64_t loaded)
{
	(void)job;
	fprintf(stderr, "\rRAMDISK: %llu MiB loaded",
		(unsigned long long)(loaded >> 20));
}

static int ask_volume(const char *prompt)
{
	clear_progress();
	return ask_enter(prompt);
}

int rdload_main(int argc, char **argv)
{
	struct options o = { 0 };
	int first = parse_options(argc, argv, &o);
	struct rd_job job = {
		.volumes = argv + first, .count = argc - first,
		.start = (uint64_t)o.start * RD_BLOCK,
		.target = o.target ? o.target : "/dev/ram0",
		.allow_file = o.allow_file, .verify = o.verify,
		.prompt = o.prompt, .ask = ask_volume,
		.say = o.quiet ? NULL : put_line,
	};
	int ret;

	if (o.identify) {
		if (rd_identify(&job))
			die_err(&job.err);
		return 0;
	}
	progress_shown = !o.quiet && isatty(STDERR_FILENO);
	job.progress = progress_shown ? show_progress : NULL;
	ret = rd_load(&job);
	clear_progress();
	if (ret)
		die_err(&job.err);
	return 0;
}
