// SPDX-License-Identifier: GPL-2.0
/*
 * initrd: boot an old-style initrd image in userspace, on kernels that no
 * longer can (Linux 7.0 removed /linuxrc and real-root-dev, commits
 * c350a65b566b and e6ce36ccc86f, and Debian's kernels, with brd as a
 * module, never could).
 *
 * "initrd mkcpio" writes a small newc cpio whose /init is kit, with the
 * kernel modules the boot needs stored uncompressed.  Put in front of the
 * old image (cat, or a boot loader's initrd list), the kernel unpacks it
 * and runs kit as PID 1 under the name init, which then does what
 * initrd_load(), rd_load_image() and handle_initrd() did: find the image,
 * load it into /dev/ram0 with rdload, and either boot the RAM disk as the
 * root or run its /linuxrc and go on to the real root.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "core/kit.h"
#include "boot/boot.h"
#include "rd/rd.h"

static const char usage[] =
"Usage: initrd mkcpio [-r ROOT] [-k KVER] [-m MODULE]... [-o OUT]\n"
"                     [-s START] [-i KIT] [IMAGE]\n"
"       /init        (kit as PID 1, from the cpio mkcpio writes)\n"
"Boot an old-style initrd (an ext2, minix, romfs... image, often compressed,\n"
"with a /linuxrc, or meant as root=/dev/ram0) on kernels that cannot.\n"
"\n"
"mkcpio writes a newc cpio holding /init (kit), /dev/console, brd,\n"
"IMAGE's filesystem module and every -m MODULE, with their dependencies,\n"
"uncompressed, and IMAGE if given.\n"
"Boot it in front of the old image:\n"
"    kit initrd mkcpio -m ext4 -o wrapper.cpio\n"
"    cat wrapper.cpio old-initrd.gz > new-initrd\n"
"  -r ROOT     modules from ROOT/lib/modules/KVER (default /)\n"
"  -k KVER     the kernel that will boot (default: this one, uname -r)\n"
"  -m MODULE   a module to load at boot (the image's filesystem, the real\n"
"              root's disk driver and filesystem...); repeatable\n"
"  -o OUT      the cpio's file (default: stdout, unless a terminal)\n"
"  -s START    IMAGE starts at block START (1 KiB), as ramdisk_start=\n"
"  -i KIT      the kit to put in as /init (default: this one); for another\n"
"              architecture's kernel, a kit built with make ARCH=\n"
"\n"
"As /init it honours root= rootfstype= rootflags= ro rw rootwait[=N]\n"
"rootdelay= init= ramdisk_start= noinitrd, and kit.image=PATH[,PATH...]\n"
"(the image's volumes), kit.prompt (ENTER before each further volume),\n"
"kit.shell[=PATH] (a shell when the boot fails: PATH, else the first\n"
"/bin/sh found; without it kit exits, and the kernel panics as it did,\n"
"so that panic=N reboots).  The image is\n"
"/initrd.image, else what follows the cpio in /sys/firmware/initrd (boot\n"
"with retain_initrd, Linux 6.8+), else IMAGE in the cpio, else kit.image.\n";

KIT_APPLET(initrd, "boot an old initrd image (ext2, minix... + /linuxrc)",
	   usage);

/* ---- the boot's failure: to a shell, or as the kernel did ---- */

/* shell run on the console, waited for: false when it could not run
 * (its exec failed: 127, as a shell says of a command not found). */
static bool run_shell(const char *shell)
{
	pid_t pid = fork();
	int status = 0;

	if (pid == 0) {
		setsid();
		ioctl(STDIN_FILENO, TIOCSCTTY, 1);
		execl(shell, shell, (char *)NULL);
		_exit(127);
	}
	while (pid > 0 && waitpid(-1, &status, 0) != pid)
		;
	return pid > 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 127);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* Waits until the console has sent what was written, 5 s at most: a
 * serial line held by flow control must not keep PID 1 from ending. */
static void drain_console(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no restart */

	sigaction(SIGALRM, &sa, NULL);
	alarm(5);
	tcdrain(STDERR_FILENO);
	alarm(0);
}

/*
 * Why the boot stopped, said; then the shell kit.shell asks for, again
 * each time it exits.  Without kit.shell, or with no shell that runs,
 * PID 1 exits: the kernel panics ("Attempted to kill init!") as it did
 * where the boot could not go on (mount_root(), panic()), and panic=N
 * reboots an unattended board.
 */
static void __attribute__((noreturn))
boot_fail(const struct boot *b, const char *reason)
{
	enum { SHELLS = 4 };
	const char *shells[SHELLS] = { b->shell, "/bin/sh",
				       "/root/bin/sh", "/old/bin/sh" };
	bool cannot_run[SHELLS] = { false };
	char why[PATH_MAX + 64] = "no kit.shell on the command line";
	size_t i;

	for (;;) {
		warn_msg("%s", reason);
		for (i = 0; b->shell && i < SHELLS; i++)
			if (*shells[i] && !cannot_run[i] &&
			    !access(shells[i], X_OK))
				break;
		if (!b->shell || i == SHELLS)
			break;
		warn_msg("starting %s; the boot stays stopped when it exits",
			 shells[i]);
		cannot_run[i] = !run_shell(shells[i]);
	}
	if (b->shell) {
		snprintf(why, sizeof(why), "no shell runs (kit.shell=%s",
			 b->shell);
		for (i = 1; i < SHELLS; i++)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 ", %s%s", shells[i], i + 1 < SHELLS ? "" : ")");
	}
	warn_msg("%s; ending as the kernel did: a panic (panic=N reboots)",
		 why);
	drain_console();
	exit(EXIT_RUNTIME);
}

/* The boot (boot/boot.c); where it stops, this applet's failure policy. */
static int boot_main(int argc, char **argv)
{
	static struct boot b = { .note = warn_line };
	struct kit_err e;

	(void)argc;
	applet_name = "initrd";
	if (getpid() != 1)
		die_usage("as init, kit runs only as PID 1 (the kernel's "
			  "/init); see kit initrd --help");
	boot_run(&b, argv, &e);
	boot_fail(&b, e.msg);
}

/* The options of mkcpio, then its engine (boot/mkcpio.c); its error is
 * said here. */
static int mkcpio_main(int argc, char **argv)
{
	const char *modules[64];
	struct mkcpio_job job = { .root = "/", .modules = modules };
	bool start_given = false;
	struct utsname u;
	int opt;

	while ((opt = kit_getopt(argc, argv, "r:k:m:o:s:i:", NULL)) != -1) {
		switch (opt) {
		case 's':
			if (parse_ulong(optarg, 0, 0, INT_MAX, &job.start))
				die_usage(RD_START_BAD, INT_MAX, optarg);
			start_given = true;
			break;
		case 'r':
			job.root = optarg;
			break;
		case 'k':
			job.kver = optarg;
			break;
		case 'm':
			if (job.nmodules == 64)
				die_usage("more than 64 -m MODULE");
			modules[job.nmodules++] = optarg;
			break;
		case 'o':
			job.out = optarg;
			break;
		case 'i':
			job.init = optarg;
			break;
		}
	}
	if (argc - optind > 1)
		die_usage("mkcpio takes one IMAGE at most, got '%s'",
			  argv[optind + 1]);
	job.image = optind < argc ? argv[optind] : NULL;
	if (start_given && !job.image)
		die_usage("-s goes with IMAGE: it says where IMAGE's filesystem "
			  "starts");
	if (!job.kver) {
		uname(&u);
		job.kver = u.release;
	}
	if (!boot_mkcpio(&job))
		return 0;
	die_err(&job.err);
}

int initrd_main(int argc, char **argv)
{
	if (invoked_as_init(argv[0]))
		return boot_main(argc, argv);
	/* Options before the command: only -h, and errors in one wording. */
	kit_getopt(argc, argv, "+", NULL);
	if (optind == argc)
		die_usage("give a command: mkcpio (see initrd --help)");
	if (strcmp(argv[optind], "mkcpio"))
		die_usage("unknown command '%s': mkcpio (see initrd --help)",
			  argv[optind]);
	argv += optind, argc -= optind;
	optind = 0;	/* mkcpio parses its own options afresh */
	return mkcpio_main(argc, argv);
}
