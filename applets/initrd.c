// SPDX-License-Identifier: GPL-2.0
/*
 * initrd: boot an old-style initrd image in userspace, on kernels that no
 * longer can (Linux 7.0 removed /linuxrc and real-root-dev, and Debian's
 * kernels, with brd as a module, never could).
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
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/magic.h>


#include "core/kit.h"
#include "boot/initrd.h"
#include "boot/mkcpio.h"
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

/* ---- the boot: failing, to a shell or as the kernel did ---- */

static struct boot *booting;

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
static void __attribute__((noreturn, format(printf, 1, 2)))
boot_fail(const char *fmt, ...)
{
	enum { SHELLS = 4 };
	const char *shells[SHELLS] = { booting->shell, "/bin/sh",
				       "/root/bin/sh", "/old/bin/sh" };
	bool cannot_run[SHELLS] = { false };
	char why[PATH_MAX + 64] = "no kit.shell on the command line";
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	vsnprintf(booting->reason, sizeof(booting->reason), fmt, ap);
	va_end(ap);
	for (;;) {
		warn_msg("%s", booting->reason);
		for (i = 0; booting->shell && i < SHELLS; i++)
			if (*shells[i] && !cannot_run[i] &&
			    !access(shells[i], X_OK))
				break;
		if (!booting->shell || i == SHELLS)
			break;
		warn_msg("starting %s; the boot stays stopped when it exits",
			 shells[i]);
		cannot_run[i] = !run_shell(shells[i]);
	}
	if (booting->shell) {
		snprintf(why, sizeof(why), "no shell runs (kit.shell=%s",
			 booting->shell);
		for (i = 1; i < SHELLS; i++)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 ", %s%s", shells[i], i + 1 < SHELLS ? "" : ")");
	}
	warn_msg("%s; ending as the kernel did: a panic (panic=N reboots)",
		 why);
	drain_console();
	exit(EXIT_RUNTIME);
}

/* ---- the boot: modules, the image, the RAM disk ---- */

static int load_module(const char *path, const char *params)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = syscall(SYS_finit_module, fd, params, 0);
	close(fd);
	return ret && errno != EEXIST ? -1 : 0;
}

/* Without params, every module of the list but brd, which waits for its
 * size; with params, brd alone.  A soft dependency may fail (crc32c_intel
 * on a CPU without SSE4.2: crc32c_generic serves). */
static void load_modules(const char *brd, const char *params)
{
	char line[256], path[200], name[64], soft[8];
	FILE *list = fopen(LIST_PATH, "re");
	int n;

	while (list && fgets(line, sizeof(line), list)) {
		soft[0] = '\0';
		n = sscanf(line, "%63s %199s %7s", name, path, soft);
		if (n < 2 || !strcmp(name, brd) != !!params)
			continue;
		if (!load_module(path, params ? params : ""))
			continue;
		if (n == 3)
			warn_msg("module %s: %s (a soft dependency: going on)",
				 name, strerror(errno));
		else
			boot_fail("cannot load module %s: %s; make the cpio "
				  "with kit initrd mkcpio -k for this kernel",
				  name, strerror(errno));
	}
	if (list)
		fclose(list);
}

static unsigned long meminfo_kib(const char *field)
{
	char buf[4096], *p;

	if (read_text("/proc/meminfo", buf, sizeof(buf)) < 0)
		return 0;
	p = strstr(buf, field);
	return p ? strtoul(p + strlen(field), NULL, 10) : 0;
}

/*
 * brd sized to what memory can hold: its pages are taken only as they are
 * written, and rdload refuses an image bigger than the device ("image too
 * big!") before writing.  A sixteenth of memory stays for the rest of the
 * boot.
 */
static void load_brd(void)
{
	unsigned long avail = meminfo_kib("MemAvailable:");
	unsigned long keep = meminfo_kib("MemTotal:") / 16;
	char params[64];

	if (!access("/sys/module/brd", F_OK))
		return;		/* built in, or loaded: as it is */
	snprintf(params, sizeof(params), "rd_nr=1 rd_size=%lu",
		 avail > keep ? avail - keep : 0);
	load_modules("brd", params);
	if (access("/sys/module/brd", F_OK))
		boot_fail("no brd module for RAM disks: make the cpio with "
			  "kit initrd mkcpio for this kernel");
}

/* What follows the cpio in src, copied to IMAGE_PATH: true; false when
 * nothing does. */
static bool image_after_cpio(const char *src)
{
	int ret = copy_after_cpio(src, IMAGE_PATH);

	if (ret == COPY_NO_FILE)
		boot_fail("cannot copy the image out of %s: %s", src,
			  strerror(errno));
	if (ret == COPY_NO_ROOM)
		boot_fail("no room in memory to copy the image out of %s: %s",
			  src, strerror(errno));
	return ret > 0;
}

/*
 * Where the image is, in the order the kernel and kit look.  A kernel
 * with brd built in writes the whole initrd, kit's cpio first, to
 * /initrd.image when it is not all cpio.
 */
static const char *find_image(struct boot *b)
{
	if (image_after_cpio("/initrd.image")) {
		unlink("/initrd.image");	/* its memory, given back */
		warn_msg("the image follows the cpio in /initrd.image, "
			 "which the kernel wrote");
		return IMAGE_PATH;
	}
	if (!access("/initrd.image", F_OK)) {
		warn_msg("the image is /initrd.image, which the kernel wrote");
		return "/initrd.image";
	}
	if (image_after_cpio("/sys/firmware/initrd")) {
		warn_msg("the image follows the cpio in /sys/firmware/initrd");
		return IMAGE_PATH;
	}
	if (!access(IMAGE_PATH, F_OK)) {
		warn_msg("the image is the one in the cpio, %s", IMAGE_PATH);
		return IMAGE_PATH;
	}
	if (b->image) {
		warn_msg("the image is %s, from kit.image=", b->image);
		return b->image;
	}
	boot_fail("no RAM disk image: none follows the cpio (boot with "
		  "retain_initrd on 6.8+), none is in it (kit initrd mkcpio "
		  "IMAGE), and no kit.image=PATH was given");
}

/*
 * The image's volumes: image, and with kit.image=A,B,C the further ones.
 * Returns their count.
 */
static int image_volumes(struct boot *b, const char *image, char **volumes,
			 int max)
{
	int count = 0;
	char *p;

	volumes[count++] = (char *)image;
	if (image == b->image)
		for (p = b->image; count < max && (p = strchr(p, ','));)
			*p++ = '\0', volumes[count++] = p;
	return count;
}

/*
 * The load in a child, rdload's words: its messages are rdload's, and
 * the engine's buffers and threads end with it, not with PID 1.
 */
static void load_ramdisk(struct boot *b, const char *image)
{
	char *volumes[38];
	struct rd_job job = {
		.volumes = volumes, .target = "/dev/ram0",
		.start = (uint64_t)b->ramdisk_start * RD_BLOCK,
		.prompt = b->prompt, .ask = ask_enter, .say = put_line,
	};
	int status;
	pid_t pid;

	job.count = image_volumes(b, image, volumes, 38);
	pid = fork();
	if (pid == 0) {
		applet_name = "rdload";
		if (rd_load(&job))
			die("%s", job.error);
		exit(0);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		boot_fail("the RAM disk was not loaded (rdload said why, "
			  "above); fix the image, or give the machine more "
			  "memory if it was too big");
	if (image != b->image)
		unlink(image);	/* its memory is the RAM disk's now */
}

/* ---- the boot: mounting ---- */

/* The filesystems to try: rootfstype=, else every one on a device. */
static void fs_types(const char *rootfstype, char *list, size_t size)
{
	char buf[4096], *line, *save;
	size_t len = 0;

	if (rootfstype) {
		snprintf(list, size, "%s", rootfstype);
		return;
	}
	list[0] = '\0';
	if (read_text("/proc/filesystems", buf, sizeof(buf)) < 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, "nodev", 5) && len + 1 < size)
			len += snprintf(list + len, size - len, "%s%s",
					len ? "," : "", line + strspn(line, " \t"));
}

/* mount_block_root(): each type in turn, read-only after EACCES; what
 * names the device for the message when none fits. */
static void mount_dev(const char *what, const char *dev, const char *dir,
		      const char *types, unsigned long flags, const char *data)
{
	char list[1024], tried[1024], *type, *save;
	int err = 0;

	fs_types(types, list, sizeof(list));
	snprintf(tried, sizeof(tried), "%s", list);
	for (type = strtok_r(list, ",", &save); type;
	     type = strtok_r(NULL, ",", &save)) {
		if (!mount(dev, dir, type, flags, data))
			return;
		if ((errno == EACCES || errno == EROFS) &&
		    !mount(dev, dir, type, flags | MS_RDONLY, data))
			return;
		if (errno != EINVAL && errno != ENODEV)
			err = errno;
	}
	if (err)
		boot_fail("cannot mount %s on %s: %s", what, dir,
			  strerror(err));
	boot_fail("cannot mount %s on %s: no filesystem type fits it (tried "
		  "%s); check rootfstype=, or add the filesystem's module "
		  "(kit initrd mkcpio -m MODULE)", what, dir,
		  tried[0] ? tried : "none");
}

/* The real root on /root: dev when known (real-root-dev), else root=. */
static void mount_root(struct boot *b, dev_t dev, bool known)
{
	char what[300];

	if (!b->root && !known)
		boot_fail("no root= on the kernel command line: name the real "
			  "root (root=/dev/vda, UUID=..., LABEL=...), or "
			  "root=/dev/ram0 to boot the RAM disk");
	if (!known && !wait_root(b, &dev))
		boot_fail("root device %s not found%s; check root=, load its "
			  "driver (kit initrd mkcpio -m MODULE), or boot with "
			  "rootwait", b->root,
			  b->root_wait > 0 ? " in rootwait's time" : "");
	unlink("/dev/root");
	if (mknod("/dev/root", S_IFBLK | 0600, dev))
		boot_fail("cannot create /dev/root: %s", strerror(errno));
	snprintf(what, sizeof(what), "root device %s (%u:%u)",
		 b->root && !known ? b->root : "of real-root-dev",
		 major(dev), minor(dev));
	mount_dev(what, "/dev/root", "/root", b->rootfstype,
		  b->rw ? 0 : MS_RDONLY, b->rootflags);
	warn_msg("mounted %s on /root", what);
}

/* ---- the boot: into the new root ---- */

static int remove_entry(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	(void)st;
	if (ftw->level > 0)
		(type == FTW_DP ? rmdir : unlink)(path);
	return 0;
}

/* As switch_root: free the initramfs (never another filesystem), move
 * /dev along, unmount the rest, and run init in the new root. */
static void __attribute__((noreturn))
switch_root(struct boot *b, const char *dir, char **argv)
{
	const char *inits[] = { b->init, "/sbin/init", "/etc/init",
				"/bin/init", "/bin/sh" };
	char path[PATH_MAX];
	struct statfs fs;
	size_t i;

	/* f_type is a signed int on 32-bit ARM, the magics unsigned. */
	if (!statfs("/", &fs) && ((unsigned int)fs.f_type == RAMFS_MAGIC ||
				  (unsigned int)fs.f_type == TMPFS_MAGIC))
		nftw("/", remove_entry, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	snprintf(path, sizeof(path), "%s/dev", dir);
	if (mount("/dev", path, NULL, MS_MOVE, NULL))
		umount2("/dev", MNT_DETACH);
	umount2("/proc", MNT_DETACH);
	umount2("/sys", MNT_DETACH);
	if (chdir(dir) || mount(".", "/", NULL, MS_MOVE, NULL) ||
	    chroot(".") || chdir("/"))
		boot_fail("cannot switch to the new root %s: %s", dir,
			  strerror(errno));
	for (i = 0; i < sizeof(inits) / sizeof(inits[0]); i++) {
		if (!inits[i])
			continue;
		argv[0] = (char *)inits[i];
		execv(inits[i], argv);
		if (i == 0)
			warn_msg("cannot run init=%s: %s; trying the usual "
				 "ones", inits[i], strerror(errno));
	}
	boot_fail("no init in the new root (tried init=, /sbin/init, "
		  "/etc/init, /bin/init, /bin/sh); boot with init=PATH");
}

/* /linuxrc as handle_initrd() ran it: the RAM disk moved over /,
 * chroot'ed, in a new session, with the console; we wait for it alone. */
static void run_linuxrc(void)
{
	int status, fd;
	pid_t pid;

	mkdir("/old", 0700);
	/* handle_initrd() went on when there was none: nothing checked
	 * call_usermodehelper_exec(). */
	if (access("/root/linuxrc", F_OK)) {
		warn_msg("the RAM disk has no /linuxrc: going on to the root");
		if (mount("/root", "/old", NULL, MS_MOVE, NULL))
			boot_fail("cannot move the RAM disk to /old: %s",
				  strerror(errno));
		return;
	}
	if (chdir("/old"))
		boot_fail("cannot enter /old: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		if (chdir("/root") || mount(".", "/", NULL, MS_MOVE, NULL) ||
		    chroot("."))
			_exit(126);
		setsid();
		fd = open("/dev/console", O_RDWR);
		if (fd >= 0) {
			dup2(fd, 0), dup2(fd, 1), dup2(fd, 2);
			if (fd > 2)
				close(fd);
		}
		execl("/linuxrc", "linuxrc", (char *)NULL);
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* The RAM disk, over / now, goes to /old; we go back to rootfs. */
	if (mount("..", ".", NULL, MS_MOVE, NULL) || chroot(".."))
		boot_fail("cannot move the RAM disk back from /: %s",
			  strerror(errno));
	chdir("/");
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		boot_fail("/linuxrc failed (%s %d); the RAM disk is on /old",
			  pid > 0 && WIFSIGNALED(status) ? "signal" : "exit",
			  pid > 0 && WIFSIGNALED(status) ? WTERMSIG(status) :
			  pid > 0 ? WEXITSTATUS(status) : -1);
}

/* handle_initrd(): /linuxrc, then the real root with the RAM disk on
 * its /initrd, or gone. */
static void boot_linuxrc(struct boot *b, char **argv)
{
	dev_t dev = 0;
	bool known;
	int fd;

	mount_dev("the RAM disk /dev/ram0", "/dev/ram0", "/root", NULL, 0,
		  NULL);
	known = linuxrc_chose_root(b, run_linuxrc, &dev);
	if (known && dev == RAM0) {
		warn_msg("/linuxrc chose the RAM disk as the root");
		switch_root(b, "/old", argv);
	}
	mount_root(b, dev, known);
	if (!mount("/old", "/root/initrd", NULL, MS_MOVE, NULL)) {
		warn_msg("the RAM disk is on /initrd");
		switch_root(b, "/root", argv);
	}
	warn_msg("/initrd does not exist: unmounting the RAM disk");
	umount2("/old", MNT_DETACH);
	fd = open("/dev/ram0", O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		uint64_t range[2] = { 0, 0 };

		ioctl(fd, BLKGETSIZE64, &range[1]);
		ioctl(fd, BLKFLSBUF, 0);
		ioctl(fd, BLKDISCARD, range);	/* frees brd's pages (6.12+) */
		close(fd);
	}
	switch_root(b, "/root", argv);
}

static bool is_ram0(const char *root)
{
	dev_t dev;

	return root && root_device(root, &dev) && dev == RAM0;
}

static int boot_main(int argc, char **argv)
{
	static struct boot b;
	char line[4096];

	(void)argc;
	applet_name = "initrd";
	booting = &b;
	if (getpid() != 1)
		die_usage("as init, kit runs only as PID 1 (the kernel's "
			  "/init); see kit initrd --help");
	mkdir("/proc", 0755), mkdir("/sys", 0755), mkdir("/dev", 0755);
	mkdir("/root", 0700);
	if (mount("proc", "/proc", "proc", 0, NULL) ||
	    mount("sysfs", "/sys", "sysfs", 0, NULL) ||
	    (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) && errno != EBUSY))
		boot_fail("cannot mount /proc, /sys and /dev: %s",
			  strerror(errno));
	if (read_text("/proc/cmdline", line, sizeof(line)) < 0)
		boot_fail("cannot read /proc/cmdline: %s", strerror(errno));
	parse_cmdline(&b, line);
	load_modules("brd", NULL);
	if (b.rootdelay) {
		warn_msg("waiting %ld s (rootdelay=)", b.rootdelay);
		sleep(b.rootdelay);
	}
	if (b.noinitrd) {
		warn_msg("noinitrd: no RAM disk, straight to the root");
		mount_root(&b, 0, false);
		switch_root(&b, "/root", argv);
	}
	load_brd();
	load_ramdisk(&b, find_image(&b));
	if (!is_ram0(b.root))
		boot_linuxrc(&b, argv);
	mount_dev("the RAM disk /dev/ram0", "/dev/ram0", "/root", b.rootfstype,
		  b.rw ? 0 : MS_RDONLY, b.rootflags);
	switch_root(&b, "/root", argv);
}

/* The options of mkcpio, then its engine (boot/mkcpio.c); its error is
 * said here. */
static int mkcpio_main(int argc, char **argv)
{
	const char *modules[64];
	struct mkcpio_job job = { .root = "/", .modules = modules };
	struct utsname u;
	int opt;

	while ((opt = kit_getopt(argc, argv, "r:k:m:o:s:i:", NULL)) != -1) {
		switch (opt) {
		case 's':
			if (parse_ulong(optarg, 0, 0, INT_MAX, &job.start))
				die_usage(RD_START_BAD, INT_MAX, optarg);
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
	if (!job.kver) {
		uname(&u);
		job.kver = u.release;
	}
	if (!mkcpio(&job))
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
