// SPDX-License-Identifier: GPL-2.0
/*
 * boot: PID 1's sequence, as the kernel's initrd_load(), rd_load_image()
 * and handle_initrd() ran it (init/do_mounts*.c): mount the kernel's
 * filesystems, load the modules, find the image, load it into /dev/ram0,
 * then boot the RAM disk as the root or run its /linuxrc and go on to
 * the real root.  What the boot does is said through b->note; where it
 * cannot go on, the error is returned and the applet decides.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/magic.h>

#include "core/kit.h"
#include "boot/boot.h"
#include "rd/rd.h"

/* ---- modules, the image, the RAM disk ---- */

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
static int load_modules(const struct boot *b, const char *brd,
			const char *params, struct kit_err *e)
{
	char line[256], path[200], name[64], soft[8];
	FILE *list = fopen(LIST_PATH, "re");
	int n, ret = 0;

	while (!ret && list && fgets(line, sizeof(line), list)) {
		soft[0] = '\0';
		n = sscanf(line, "%63s %199s %7s", name, path, soft);
		if (n < 2 || !strcmp(name, brd) != !!params)
			continue;
		if (!load_module(path, params ? params : ""))
			continue;
		if (n == 3)
			kit_note(b->note, "module %s: %s (a soft dependency: "
				 "going on)", name, strerror(errno));
		else
			ret = kit_fail(e, EXIT_RUNTIME, 0, "cannot load module "
				       "%s: %s; make the cpio with kit initrd "
				       "mkcpio -k for this kernel", name,
				       strerror(errno));
	}
	if (list)
		fclose(list);
	return ret;
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
static int load_brd(const struct boot *b, struct kit_err *e)
{
	unsigned long avail = meminfo_kib("MemAvailable:");
	unsigned long keep = meminfo_kib("MemTotal:") / 16;
	char params[64];

	if (!access("/sys/module/brd", F_OK))
		return 0;	/* built in, or loaded: as it is */
	snprintf(params, sizeof(params), "rd_nr=1 rd_size=%lu",
		 avail > keep ? avail - keep : 0);
	if (load_modules(b, "brd", params, e))
		return -1;
	if (access("/sys/module/brd", F_OK))
		return kit_fail(e, EXIT_RUNTIME, 0, "no brd module for RAM "
				"disks: make the cpio with kit initrd mkcpio "
				"for this kernel");
	return 0;
}

/* What follows the cpio in src, copied to IMAGE_PATH: 1; 0 when nothing
 * does, -1 with *e when it cannot be copied. */
static int image_after_cpio(const char *src, struct kit_err *e)
{
	int ret = boot_copy_after_cpio(src, IMAGE_PATH);

	if (ret == COPY_NO_FILE)
		return kit_fail(e, EXIT_RUNTIME, errno, "cannot copy the image "
				"out of %s", src);
	if (ret == COPY_NO_ROOM)
		return kit_fail(e, EXIT_RUNTIME, errno, "no room in memory to "
				"copy the image out of %s", src);
	return ret > 0;
}

/*
 * Where the image is, in the order the kernel and kit look (NULL with *e
 * when nowhere).  A kernel with brd built in writes the whole initrd,
 * kit's cpio first, to /initrd.image when it is not all cpio.
 */
static const char *find_image(const struct boot *b, struct kit_err *e)
{
	int after = image_after_cpio("/initrd.image", e);

	if (after < 0)
		return NULL;
	if (after) {
		unlink("/initrd.image");	/* its memory, given back */
		kit_note(b->note, "the image follows the cpio in "
			 "/initrd.image, which the kernel wrote");
		return IMAGE_PATH;
	}
	if (!access("/initrd.image", F_OK)) {
		kit_note(b->note, "the image is /initrd.image, which the "
			 "kernel wrote");
		return "/initrd.image";
	}
	after = image_after_cpio("/sys/firmware/initrd", e);
	if (after < 0)
		return NULL;
	if (after) {
		kit_note(b->note, "the image follows the cpio in "
			 "/sys/firmware/initrd");
		return IMAGE_PATH;
	}
	if (!access(IMAGE_PATH, F_OK)) {
		kit_note(b->note, "the image is the one in the cpio, %s",
			 IMAGE_PATH);
		return IMAGE_PATH;
	}
	if (b->image) {
		kit_note(b->note, "the image is %s, from kit.image=", b->image);
		return b->image;
	}
	kit_fail(e, EXIT_RUNTIME, 0, "no RAM disk image: none follows the "
		 "cpio (boot with retain_initrd on 6.8+), none is in it (kit "
		 "initrd mkcpio IMAGE), and no kit.image=PATH was given");
	return NULL;
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
 * The load in a child, with rdload's name: its messages are rdload's, and
 * the engine's buffers and threads end with it, not with PID 1.
 */
static int load_ramdisk(struct boot *b, const char *image, struct kit_err *e)
{
	char *volumes[38];
	struct rd_job job = {
		.volumes = volumes, .target = "/dev/ram0",
		.start = (uint64_t)b->ramdisk_start * RD_BLOCK,
		.prompt = b->prompt, .ask = ask_enter, .say = put_line,
	};
	int status;
	pid_t pid;

	job.count = image_volumes(b, image, volumes,
				  sizeof(volumes) / sizeof(volumes[0]));
	pid = fork();
	if (pid == 0) {
		applet_name = "rdload";
		if (!rd_load(&job))
			exit(0);
		/* Said as die() says it, stdout's check left out. */
		kit_note(b->note, "%s", job.err.msg);
		fflush(stdout);
		_exit(EXIT_RUNTIME);
	}
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return kit_fail(e, EXIT_RUNTIME, 0, "the RAM disk was not "
				"loaded (rdload said why, above); fix the "
				"image, or give the machine more memory if it "
				"was too big");
	if (image != b->image)
		unlink(image);	/* its memory is the RAM disk's now */
	return 0;
}

/* ---- mounting ---- */

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
static int mount_dev(const char *what, const char *dev, const char *dir,
		     const char *types, unsigned long flags, const char *data,
		     struct kit_err *e)
{
	char list[1024], tried[1024], *type, *save;
	int err = 0;

	fs_types(types, list, sizeof(list));
	snprintf(tried, sizeof(tried), "%s", list);
	for (type = strtok_r(list, ",", &save); type;
	     type = strtok_r(NULL, ",", &save)) {
		if (!mount(dev, dir, type, flags, data))
			return 0;
		if ((errno == EACCES || errno == EROFS) &&
		    !mount(dev, dir, type, flags | MS_RDONLY, data))
			return 0;
		if (errno != EINVAL && errno != ENODEV)
			err = errno;
	}
	if (err)
		return kit_fail(e, EXIT_RUNTIME, err, "cannot mount %s on %s",
				what, dir);
	return kit_fail(e, EXIT_RUNTIME, 0, "cannot mount %s on %s: no "
			"filesystem type fits it (tried %s); check rootfstype=, "
			"or add the filesystem's module (kit initrd mkcpio -m "
			"MODULE)", what, dir, tried[0] ? tried : "none");
}

static int mount_ram0(const char *types, unsigned long flags,
		      const char *data, struct kit_err *e)
{
	return mount_dev("the RAM disk /dev/ram0", "/dev/ram0", "/root",
			 types, flags, data, e);
}

/* The real root on /root: dev when known (real-root-dev), else root=. */
static int mount_root(const struct boot *b, dev_t dev, bool known,
		      struct kit_err *e)
{
	char what[300];

	if (!b->root && !known)
		return kit_fail(e, EXIT_RUNTIME, 0, "no root= on the kernel "
				"command line: name the real root "
				"(root=/dev/vda, UUID=..., LABEL=...), or "
				"root=/dev/ram0 to boot the RAM disk");
	if (!known && !boot_wait_root(b, &dev))
		return kit_fail(e, EXIT_RUNTIME, 0, "root device %s not "
				"found%s; check root=, load its driver (kit "
				"initrd mkcpio -m MODULE), or boot with "
				"rootwait", b->root, b->root_wait > 0 ?
				" in rootwait's time" : "");
	unlink("/dev/root");
	if (mknod("/dev/root", S_IFBLK | 0600, dev))
		return kit_fail(e, EXIT_RUNTIME, errno, "cannot create "
				"/dev/root");
	snprintf(what, sizeof(what), "root device %s (%u:%u)",
		 b->root && !known ? b->root : "of real-root-dev",
		 major(dev), minor(dev));
	if (mount_dev(what, "/dev/root", "/root", b->rootfstype,
		      b->rw ? 0 : MS_RDONLY, b->rootflags, e))
		return -1;
	kit_note(b->note, "mounted %s on /root", what);
	return 0;
}

/* ---- into the new root ---- */

static int remove_entry(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	(void)st;
	if (ftw->level > 0)
		(type == FTW_DP ? rmdir : unlink)(path);
	return 0;
}

/* As switch_root: free the initramfs (never another filesystem), move
 * /dev along, unmount the rest, and run init in the new root.  Returns
 * only when that fails. */
static int switch_root(const struct boot *b, const char *dir, char **argv,
		       struct kit_err *e)
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
		return kit_fail(e, EXIT_RUNTIME, errno, "cannot switch to the "
				"new root %s", dir);
	for (i = 0; i < sizeof(inits) / sizeof(inits[0]); i++) {
		if (!inits[i])
			continue;
		argv[0] = (char *)inits[i];
		execv(inits[i], argv);
		if (i == 0)
			kit_note(b->note, "cannot run init=%s: %s; trying the "
				 "usual ones", inits[i], strerror(errno));
	}
	return kit_fail(e, EXIT_RUNTIME, 0, "no init in the new root (tried "
			"init=, /sbin/init, /etc/init, /bin/init, /bin/sh); "
			"boot with init=PATH");
}

/* In the child: the RAM disk over /, chroot'ed, in a new session, with
 * the console, running /linuxrc. */
static void __attribute__((noreturn)) exec_linuxrc(void)
{
	int fd;

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

/* /linuxrc as handle_initrd() ran it; we wait for it alone. */
static int run_linuxrc(const struct boot *b, struct kit_err *e)
{
	int status;
	pid_t pid;

	mkdir("/old", 0700);
	/* handle_initrd() went on when there was none: nothing checked
	 * call_usermodehelper_exec(). */
	if (access("/root/linuxrc", F_OK)) {
		kit_note(b->note, "the RAM disk has no /linuxrc: going on to "
			 "the root");
		if (mount("/root", "/old", NULL, MS_MOVE, NULL))
			return kit_fail(e, EXIT_RUNTIME, errno, "cannot move "
					"the RAM disk to /old");
		return 0;
	}
	if (chdir("/old"))
		return kit_fail(e, EXIT_RUNTIME, errno, "cannot enter /old");
	pid = fork();
	if (pid == 0)
		exec_linuxrc();
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* The RAM disk, over / now, goes to /old; we go back to rootfs. */
	if (mount("..", ".", NULL, MS_MOVE, NULL) || chroot(".."))
		return kit_fail(e, EXIT_RUNTIME, errno, "cannot move the RAM "
				"disk back from /");
	chdir("/");
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return kit_fail(e, EXIT_RUNTIME, 0, "/linuxrc failed (%s %d); "
				"the RAM disk is on /old",
				pid > 0 && WIFSIGNALED(status) ? "signal" :
				"exit", pid > 0 && WIFSIGNALED(status) ?
				WTERMSIG(status) : pid > 0 ?
				WEXITSTATUS(status) : -1);
	return 0;
}

/* Frees what brd holds of /dev/ram0 once nothing mounts it. */
static void free_ram0(void)
{
	uint64_t range[2] = { 0, 0 };
	int fd = open("/dev/ram0", O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return;
	ioctl(fd, BLKGETSIZE64, &range[1]);
	ioctl(fd, BLKFLSBUF, 0);
	/* Frees brd's pages: 6.10+, commit 9ead7efc6f3f. */
	ioctl(fd, BLKDISCARD, range);
	close(fd);
}

/* handle_initrd(): /linuxrc, then the real root with the RAM disk on
 * its /initrd, or gone. */
static int boot_linuxrc(const struct boot *b, char **argv, struct kit_err *e)
{
	dev_t dev = 0;
	int chose;

	if (mount_ram0(NULL, 0, NULL, e))
		return -1;
	chose = boot_linuxrc_chose_root(b, &dev, e, run_linuxrc);
	if (chose < 0)
		return -1;
	if (chose && dev == RAM0) {
		kit_note(b->note, "/linuxrc chose the RAM disk as the root");
		return switch_root(b, "/old", argv, e);
	}
	if (mount_root(b, dev, chose, e))
		return -1;
	if (!mount("/old", "/root/initrd", NULL, MS_MOVE, NULL)) {
		kit_note(b->note, "the RAM disk is on /initrd");
		return switch_root(b, "/root", argv, e);
	}
	kit_note(b->note, "/initrd does not exist: unmounting the RAM disk");
	umount2("/old", MNT_DETACH);
	free_ram0();
	return switch_root(b, "/root", argv, e);
}

static bool is_ram0(const char *root)
{
	dev_t dev;

	return root && boot_root_device(root, &dev) && dev == RAM0;
}

/* /proc, /sys and /dev, then the command line into b. */
static int boot_setup(struct boot *b, struct kit_err *e)
{
	char line[4096];

	mkdir("/proc", 0755), mkdir("/sys", 0755), mkdir("/dev", 0755);
	mkdir("/root", 0700);
	if (mount("proc", "/proc", "proc", 0, NULL) ||
	    mount("sysfs", "/sys", "sysfs", 0, NULL) ||
	    (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) && errno != EBUSY))
		return kit_fail(e, EXIT_RUNTIME, errno, "cannot mount /proc, "
				"/sys and /dev");
	if (read_text("/proc/cmdline", line, sizeof(line)) < 0)
		return kit_fail(e, EXIT_RUNTIME, errno, "cannot read "
				"/proc/cmdline");
	boot_parse_cmdline(b, line);
	return 0;
}

int boot_run(struct boot *b, char **argv, struct kit_err *e)
{
	const char *image;

	if (boot_setup(b, e) || load_modules(b, "brd", NULL, e))
		return -1;
	if (b->rootdelay) {
		kit_note(b->note, "waiting %ld s (rootdelay=)", b->rootdelay);
		sleep(b->rootdelay);
	}
	if (b->noinitrd) {
		kit_note(b->note, "noinitrd: no RAM disk, straight to the root");
		if (mount_root(b, 0, false, e))
			return -1;
		return switch_root(b, "/root", argv, e);
	}
	if (load_brd(b, e))
		return -1;
	image = find_image(b, e);
	if (!image || load_ramdisk(b, image, e))
		return -1;
	if (!is_ram0(b->root))
		return boot_linuxrc(b, argv, e);
	if (mount_ram0(b->rootfstype, b->rw ? 0 : MS_RDONLY, b->rootflags, e))
		return -1;
	return switch_root(b, "/root", argv, e);
}
