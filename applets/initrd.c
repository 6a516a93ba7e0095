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
#include <dirent.h>
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
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/magic.h>


#include "core/kit.h"
#include "boot/initrd.h"

static const char usage[] =
"Usage: initrd mkcpio [-r ROOT] [-k KVER] [-m MODULE]... [-o OUT]\n"
"                     [-s START] [IMAGE]\n"
"       /init        (kit as PID 1, from the cpio mkcpio writes)\n"
"Boot an old-style initrd (an ext2, minix, romfs... image, often compressed,\n"
"with a /linuxrc, or meant as root=/dev/ram0) on kernels that cannot.\n"
"\n"
"mkcpio writes a newc cpio holding /init (this kit), /dev/console, brd,\n"
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
"\n"
"As /init it honours root= rootfstype= rootflags= ro rw rootwait[=N]\n"
"rootdelay= init= ramdisk_start= noinitrd, and kit.image=PATH[,PATH...]\n"
"(the image's volumes), kit.prompt (ENTER before each further volume),\n"
"kit.shell=PATH (a shell for when the boot fails).  The image is\n"
"/initrd.image, else what follows the cpio in /sys/firmware/initrd (boot\n"
"with retain_initrd, Linux 6.8+), else IMAGE in the cpio, else kit.image.\n";

KIT_APPLET(initrd, "boot an old initrd image (ext2, minix... + /linuxrc)",
	   usage);

int rdload_main(int argc, char **argv);

/* ---- the boot: the kernel command line ---- */

struct boot {
	char *root, *rootfstype, *rootflags, *init, *image, *shell;
	bool rw, noinitrd, prompt;
	long root_wait;		/* as the kernel's: s, 0 none, -1 for ever */
	long rootdelay, ramdisk_start;
	char cmdline[4096];
	char reason[512];	/* why the boot stopped, for the console */
};

/* Base 0, as the kernel reads rootdelay=, rootwait= and ramdisk_start=;
 * bad when value is not a number. */
static long cmdline_number(const char *name, const char *value, long bad)
{
	unsigned long n;

	if (parse_ulong(value, 0, 0, LONG_MAX, &n)) {
		warn_msg("ignoring %s=%s: not a number", name, value);
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
		warn_msg("ignoring rootwait=%s: a value needs Linux 6.6; "
			 "give rootwait alone to wait", value);
		return;
	}
	b->root_wait = cmdline_number("rootwait", value, -1);
}

/*
 * One word of the command line, quotes taken off as the kernel does.
 * ro, rw and rootwait take no value (readonly(), readwrite(),
 * rootwait_setup(): "if (*str) return 0"); an empty root= is none
 * (prepare_namespace() reads saved_root_name only when not empty).
 */
static void boot_param(struct boot *b, char *word)
{
	char *value = strchr(word, '=');

	if (value)
		*value++ = '\0';
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
		b->rootdelay = cmdline_number(word, value, 0);
	else if (!strcmp(word, "ramdisk_start") && value)
		b->ramdisk_start = cmdline_number(word, value, 0);
	else if (!strcmp(word, "noinitrd"))
		b->noinitrd = true;
	else if (!strcmp(word, "kit.image") && value)
		b->image = value;
	else if (!strcmp(word, "kit.shell") && value)
		b->shell = value;
	else if (!strcmp(word, "kit.prompt"))
		b->prompt = true;
}

/* The kernel's isspace() (lib/ctype.c: _S), which next_arg() splits at:
 * \t \n \v \f \r, space, and Latin-1's no-break space. */
#define CMDLINE_SPACES	" \t\n\v\f\r\xa0"

/* The words of line, split at spaces outside double quotes; "--" ends
 * what the kernel (and so we) read. */
static void parse_cmdline(struct boot *b, const char *line)
{
	char *p, *word, *q;
	bool quoted;

	snprintf(b->cmdline, sizeof(b->cmdline), "%s", line);
	for (p = b->cmdline; *p;) {
		p += strspn(p, CMDLINE_SPACES);
		if (!*p)
			break;
		word = p;
		for (quoted = false; *p && (quoted || !strchr(CMDLINE_SPACES, *p));
		     p++)
			if (*p == '"')
				quoted = !quoted;
		if (*p)
			*p++ = '\0';
		for (q = word; (q = strchr(q, '"'));)
			memmove(q, q + 1, strlen(q));
		if (!strcmp(word, "--"))
			break;
		boot_param(b, word);
	}
}

/* ---- the boot: failing without a panic ---- */

static struct boot *booting;

static void run_shell(const char *shell)
{
	pid_t pid = fork();

	if (pid == 0) {
		setsid();
		ioctl(STDIN_FILENO, TIOCSCTTY, 1);
		execl(shell, shell, (char *)NULL);
		_exit(127);
	}
	while (pid > 0 && waitpid(-1, NULL, 0) != pid)
		;
}

/* PID 1 must not exit (the kernel would panic): say why, offer a shell,
 * and say it again every minute. */
static void __attribute__((noreturn, format(printf, 1, 2)))
boot_fail(const char *fmt, ...)
{
	const char *shells[] = { booting->shell, "/bin/sh", "/root/bin/sh",
				 "/old/bin/sh" };
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	vsnprintf(booting->reason, sizeof(booting->reason), fmt, ap);
	va_end(ap);
	for (;;) {
		warn_msg("%s", booting->reason);
		for (i = 0; i < sizeof(shells) / sizeof(shells[0]); i++)
			if (shells[i] && !access(shells[i], X_OK))
				break;
		if (i < sizeof(shells) / sizeof(shells[0])) {
			warn_msg("starting %s; the boot stays stopped when it "
				 "exits", shells[i]);
			run_shell(shells[i]);
			continue;
		}
		warn_msg("no shell (boot with kit.shell=PATH); waiting");
		sleep(60);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
	}
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

/* The first byte at or after pos that is not NUL (EOF: the file's size). */
static off_t skip_nuls(int fd, off_t pos)
{
	char buf[4096];
	ssize_t n, i;

	while ((n = pread(fd, buf, sizeof(buf), pos)) > 0) {
		for (i = 0; i < n && !buf[i]; i++)
			;
		pos += i;
		if (i < n)
			break;
	}
	return pos;
}

/* A newc header's field at off: 8 hex digits (parse_header()); no sign,
 * no spaces, which strtoul() would take. */
static bool newc_field(const char *hdr, size_t off, unsigned long *value)
{
	char field[9];

	memcpy(field, hdr + off, 8);
	field[8] = '\0';
	if (strspn(field, "0123456789abcdefABCDEF") != 8)
		return false;
	*value = strtoul(field, NULL, 16);
	return true;
}

/*
 * Where the newc archives at the start of the initrd end, and the image
 * begins: early microcode, kit's wrapper, any others, walked entry by
 * entry as unpack_to_rootfs() does.  A '0' at a 4-byte boundary starts a
 * header, and NULs between entries and archives are padding (do_reset(),
 * and unpack_to_rootfs() skips them).  The image begins where the last
 * archive ends: NULs before it are its own (ext2's and minix's boot
 * block) unless an archive follows them.  0 when no archive comes first,
 * or one is cut or not newc (do_header(): "no cpio magic"); the file's
 * size when only NULs follow.
 */
static off_t cpio_end(int fd)
{
	char hdr[NEWC_HDR_SIZE];
	unsigned long namesize, filesize;
	off_t pos, end = 0;
	struct stat st;
	ssize_t n;

	if (fstat(fd, &st))
		return 0;
	for (;;) {
		pos = skip_nuls(fd, end);
		n = pread(fd, hdr, sizeof(hdr), pos);
		if (n <= 0)
			return end ? pos : 0;
		if (hdr[0] != '0' || pos & 3)
			return end;
		if (n != sizeof(hdr) || memcmp(hdr, NEWC_MAGIC, 6) ||
		    !newc_field(hdr, 54, &filesize) ||
		    !newc_field(hdr, 94, &namesize))
			return 0;
		end = (pos + sizeof(hdr) + namesize + 3) & ~3;
		end = (end + filesize + 3) & ~3;
		if (end > st.st_size)
			return 0;
	}
}

/*
 * What follows a leading newc cpio in src (kit's wrapper, in an initrd
 * the kernel kept whole), copied to dst.  False when src is missing, is
 * no cpio, or nothing follows it.
 */
static bool copy_after_cpio(const char *src, const char *dst)
{
	int in = open(src, O_RDONLY | O_CLOEXEC), out;
	char buf[65536];
	off_t pos;
	ssize_t n;

	if (in < 0)
		return false;
	pos = cpio_end(in);
	n = pos ? pread(in, buf, 1, pos) : 0;
	if (n <= 0) {
		close(in);
		return false;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0)
		boot_fail("cannot copy the image out of %s: %s", src,
			  strerror(errno));
	while ((n = pread(in, buf, sizeof(buf), pos)) > 0) {
		if (write_all(out, buf, n) < 0)
			boot_fail("no room in memory to copy the image out of "
				  "%s: %s", src, strerror(errno));
		pos += n;
	}
	close(in);
	close(out);
	return true;
}

/*
 * Where the image is, in the order the kernel and kit look.  A kernel
 * with brd built in writes the whole initrd, kit's cpio first, to
 * /initrd.image when it is not all cpio.
 */
static const char *find_image(struct boot *b)
{
	if (copy_after_cpio("/initrd.image", IMAGE_PATH)) {
		unlink("/initrd.image");	/* its memory, given back */
		warn_msg("the image follows the cpio in /initrd.image, "
			 "which the kernel wrote");
		return IMAGE_PATH;
	}
	if (!access("/initrd.image", F_OK)) {
		warn_msg("the image is /initrd.image, which the kernel wrote");
		return "/initrd.image";
	}
	if (copy_after_cpio("/sys/firmware/initrd", IMAGE_PATH)) {
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

/* rdload in a child, so its messages are rdload's and its exit is not
 * PID 1's. */
static void load_ramdisk(struct boot *b, const char *image)
{
	char start[32], *argv[40], *p;
	int argc = 0, status;
	pid_t pid;

	snprintf(start, sizeof(start), "%ld", b->ramdisk_start);
	argv[argc++] = "rdload";
	argv[argc++] = "-s";
	argv[argc++] = start;
	if (b->prompt)
		argv[argc++] = "--prompt";
	argv[argc++] = (char *)image;
	/* kit.image=A,B,C: further volumes after the first */
	if (image == b->image)
		for (p = b->image; argc < 39 && (p = strchr(p, ','));)
			*p++ = '\0', argv[argc++] = p;
	argv[argc] = NULL;
	pid = fork();
	if (pid == 0) {
		applet_name = "rdload";
		exit(rdload_main(argc, argv));
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

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * root='s device, waited for as prepare_namespace() does: with rootwait
 * until it comes (rootwait=N: N s at most); without, only while drivers
 * may still probe (wait_for_device_probe()): ROOT_PROBE_S.
 */
#define ROOT_PROBE_S	2
static bool wait_root(const struct boot *b, dev_t *dev)
{
	double until = now() + (b->root_wait > 0 ? b->root_wait : ROOT_PROBE_S);
	bool said = false;

	while (!root_device(b->root, dev)) {
		if (b->root_wait >= 0 && now() > until)
			return false;
		if (b->root_wait && !said)
			warn_msg("waiting for root device %s...", b->root);
		said = true;
		usleep(100000);
	}
	return true;
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

/* handle_initrd()'s sysctl, until 7.0 */
#define REAL_ROOT_DEV	"/proc/sys/kernel/real-root-dev"

static int real_root_dev(unsigned int *value, bool write)
{
	char buf[32];
	int fd, ret;

	if (write) {
		fd = open(REAL_ROOT_DEV, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		ret = write_all(fd, buf, snprintf(buf, sizeof(buf), "%u\n",
						  *value));
		close(fd);
		return ret < 0 ? -1 : 0;
	}
	if (read_text(REAL_ROOT_DEV, buf, sizeof(buf)) < 0)
		return -1;
	*value = strtoul(buf, NULL, 0);
	return 0;
}

static unsigned int encode_dev(dev_t dev)
{
	return (minor(dev) & 0xff) | (major(dev) << 8) |
	       ((minor(dev) & ~0xffU) << 12);
}

static dev_t decode_dev(unsigned int v)
{
	return makedev((v & 0xfff00) >> 8, (v & 0xff) | ((v >> 12) & 0xfff00));
}

/* /linuxrc as handle_initrd() ran it: the RAM disk moved over /,
 * chroot'ed, in a new session, with the console; we wait for it alone. */
static void run_linuxrc(void)
{
	int status, fd;
	pid_t pid;

	if (access("/root/linuxrc", F_OK))
		boot_fail("the RAM disk has no /linuxrc; boot with "
			  "root=/dev/ram0 to use it as the root");
	mkdir("/old", 0700);
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

/*
 * Runs linuxrc as handle_initrd() did: real-root-dev holds root='s
 * device while it runs (5.x and 6.x still have it), and what it wrote
 * there, if that changed, names the real root.  True, with *dev, when
 * it did.
 */
static bool linuxrc_chose_root(const struct boot *b, void (*linuxrc)(void),
			       dev_t *dev)
{
	unsigned int rrd = 0, before = 0;

	if (b->root && root_device(b->root, dev))
		before = encode_dev(*dev);
	if (!access(REAL_ROOT_DEV, W_OK))
		real_root_dev(&before, true);
	linuxrc();
	if (real_root_dev(&rrd, false) || rrd == before)
		return false;
	*dev = decode_dev(rrd);
	return true;
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

int initrd_main(int argc, char **argv)
{
	const char *base = strrchr(argv[0], '/');

	base = base ? base + 1 : argv[0];
	if (!strcmp(base, "init"))
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
