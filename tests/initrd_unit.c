// SPDX-License-Identifier: GPL-2.0
/* Unit tests of initrd: the kernel command line, the cpio writer and
 * reader, module names, ELF machines and device numbers. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/kit.h"
#include "boot/boot.h"
#include "boot/mkcpio.h"
#include "unit.h"

static char *noted;
static size_t noted_size;

static void note_line(const char *line)
{
	snprintf(noted, noted_size, "%s", line);
}

/* boot_parse_cmdline() into b, what it notes (a warning) in said. */
static void parse_saying(struct boot *b, const char *line, char *said,
			 size_t size)
{
	noted = said, noted_size = size;
	said[0] = '\0';
	b->note = note_line;
	boot_parse_cmdline(b, line);
}

static void test_cmdline(void)
{
	char said[256];

	struct boot b = { .rw = false };

	setenv("KIT_OSRELEASE", "6.12.0", 1);
	boot_parse_cmdline(&b, "BOOT_IMAGE=/vmlinuz root=/dev/vda rootfstype=ext4 "
		      "rootflags=\"data=journal,errors=remount-ro\" rw quiet "
		      "rootwait=5 rootdelay=2 init=/sbin/myinit ramdisk_start=37 "
		      "kit.image=/dev/vdb,/dev/vdc kit.shell=/bin/ash kit.prompt "
		      "\"root=/dev/vdq\" -- root=/dev/after noinitrd\n");
	check("root= (quoted whole word, last one wins)",
	      b.root && !strcmp(b.root, "/dev/vdq"));
	check("rootfstype=", b.rootfstype && !strcmp(b.rootfstype, "ext4"));
	check("rootflags= with its quotes taken off",
	      b.rootflags && !strcmp(b.rootflags, "data=journal,errors=remount-ro"));
	check("rw", b.rw);
	check("rootwait=5", b.root_wait == 5);
	check("rootdelay=2", b.rootdelay == 2);
	check("init=", b.init && !strcmp(b.init, "/sbin/myinit"));
	check("ramdisk_start=37", b.ramdisk_start == 37);
	check("kit.image= keeps its volume list",
	      b.image && !strcmp(b.image, "/dev/vdb,/dev/vdc"));
	check("kit.shell=", b.shell && !strcmp(b.shell, "/bin/ash"));
	check("kit.prompt", b.prompt);
	check("nothing after -- is read (noinitrd)", !b.noinitrd);
	boot_parse_cmdline(&b, "kit.shell");
	check("kit.shell alone: the first /bin/sh found", b.shell && !*b.shell);

	memset(&b, 0, sizeof(b));
	parse_saying(&b, "rw ro rootwait noinitrd ramdisk_start=x", said,
		     sizeof(said));
	check("a bad number: ignored, said",
	      strstr(said, "ignoring ramdisk_start=x: not a number"));
	check("ro after rw: read-only", !b.rw);
	check("rootwait alone waits for ever", b.root_wait == -1);
	check("noinitrd", b.noinitrd);
	check("a bad number is ignored (0)", b.ramdisk_start == 0);
	check("no root= given: none", !b.root);

	memset(&b, 0, sizeof(b));
	parse_saying(&b, "ramdisk_start=0x10 rootdelay=010 rootwait=09", said,
		     sizeof(said));
	check("numbers as the kernel reads them: 0x hex, 010 octal",
	      b.ramdisk_start == 16 && b.rootdelay == 8);
	check("rootwait=09 is no number (octal): said, and waits for ever, "
	      "as rootwait_timeout_setup()", b.root_wait == -1 &&
	      strstr(said, "ignoring rootwait=09: not a number"));

	memset(&b, 0, sizeof(b));
	parse_saying(&b, "ramdisk_start=2147483648", said, sizeof(said));
	check("ramdisk_start= past the kernel's int: ignored, said",
	      b.ramdisk_start == 0 && strstr(said, "ignoring "
	      "ramdisk_start=2147483648: not a number from 0 to 2147483647"));
	memset(&b, 0, sizeof(b));
	parse_saying(&b, "ramdisk_start=2147483647", said, sizeof(said));
	check("ramdisk_start= at the kernel's INT_MAX is taken",
	      b.ramdisk_start == 2147483647);
	unsetenv("KIT_OSRELEASE");
}

/* rootwait=N: a timeout since 6.6 (commit 3b0086ced97f); before, not
 * rootwait at all. */
static void test_rootwait(void)
{
	static const struct {
		const char *release, *line;
		long root_wait;
		const char *said;
	} cases[] = {
		{ "6.12.0", "rootwait=0", 0, "" },
		{ "7.3.1", "rootwait rootwait=0", 0, "" },
		{ "6.6.0", "rootwait=7", 7, "" },
		{ "6.6.0", "rootwait=", -1, "ignoring rootwait=: not a number" },
		{ "6.5.13", "rootwait=7", 0, "ignoring rootwait=7: a value "
		  "needs Linux 6.6; give rootwait alone to wait" },
		{ "6.1.0", "rootwait=0", 0, "ignoring rootwait=0: a value" },
		{ "6.1.0", "rootwait rootwait=3", -1, "ignoring rootwait=3" },
		{ "6.1.0", "rootwait", -1, "" },
	};
	char said[256], name[160];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct boot b = { .root_wait = 0 };

		setenv("KIT_OSRELEASE", cases[i].release, 1);
		parse_saying(&b, cases[i].line, said, sizeof(said));
		snprintf(name, sizeof(name), "%s on %s: wait %ld, said '%s'",
			 cases[i].line, cases[i].release, cases[i].root_wait,
			 cases[i].said);
		check(name, b.root_wait == cases[i].root_wait &&
		      (*cases[i].said ? !!strstr(said, cases[i].said) : !*said));
	}
	unsetenv("KIT_OSRELEASE");
}

static void wait_root_hung(int sig)
{
	(void)sig;
	check("boot_wait_root: gave up in time (no hang)", false);
	_exit(1);
}

/* A missing root= device: without rootwait, or rootwait=0, given up at
 * once (after the probe's grace); rootwait=1, after a second. */
static void test_wait_root(void)
{
	struct boot b = { .root = "/dev/nosuchdisk" };
	dev_t dev;
	double t0;

	signal(SIGALRM, wait_root_hung);
	alarm(10);
	t0 = boot_now();
	check("no rootwait: a missing device is not found",
	      !boot_wait_root(&b, &dev));
	check("no rootwait: given up after the probe's grace, no more",
	      boot_now() - t0 < ROOT_PROBE_S + 1);
	b.root_wait = 1;
	t0 = boot_now();
	check("rootwait=1: a missing device is not found",
	      !boot_wait_root(&b, &dev));
	check("rootwait=1: given up after 1 s", boot_now() - t0 >= 1 &&
	      boot_now() - t0 < 2);
	b.root = "1:0";
	b.root_wait = -1;
	check("rootwait: a device that is there is not waited for",
	      boot_wait_root(&b, &dev) && dev == RAM0);
	alarm(0);
}

/* Where the kernel's parse_args() differs from a naive one. */
static void test_cmdline_kernel(void)
{
	struct boot b = { .rw = false };

	boot_parse_cmdline(&b, "root=/dev/vda\rrootfstype=ext4\vrw\finit=/a"
		      "\xa0rootflags=x");
	check("\\r \\v \\f and 0xa0 split words, as the kernel's isspace()",
	      b.root && !strcmp(b.root, "/dev/vda") && b.rootfstype &&
	      !strcmp(b.rootfstype, "ext4") && b.rw && b.init &&
	      !strcmp(b.init, "/a") && b.rootflags && !strcmp(b.rootflags, "x"));

	memset(&b, 0, sizeof(b));
	boot_parse_cmdline(&b, "rw=0 ro=1");
	check("ro=1 is not ro (readonly(): no value)", !b.rw);
	b.rw = true;
	boot_parse_cmdline(&b, "ro=1");
	check("ro=1 leaves rw", b.rw);
	b.rw = false;
	boot_parse_cmdline(&b, "rw=1");
	check("rw=1 is not rw (readwrite(): no value)", !b.rw);

	memset(&b, 0, sizeof(b));
	boot_parse_cmdline(&b, "root=/dev/vda root=");
	check("an empty root= is none, as prepare_namespace() reads it",
	      !b.root);
	boot_parse_cmdline(&b, "root=\"\"");
	check("root=\"\" is none too", !b.root);

	memset(&b, 0, sizeof(b));
	boot_parse_cmdline(&b, "root=/dev/\"vda\" kit.shell=\"/bin/sh\"x "
		      "rootflags=a\"b c\"d init=/sbin/init\"");
	check("quotes inside a value stay, as next_arg() leaves them",
	      b.root && !strcmp(b.root, "/dev/\"vda\"") &&
	      b.init && !strcmp(b.init, "/sbin/init\"") &&
	      b.shell && !strcmp(b.shell, "/bin/sh\"x") &&
	      b.rootflags && !strcmp(b.rootflags, "a\"b c\"d"));
}

/* boot_copy_after_cpio: the bytes after the archive at path (end long), and
 * nothing when nothing follows or there is no archive. */
static void test_copy_after(const char *path, off_t end)
{
	char dst[] = "/tmp/initrd_unit_image.XXXXXX", buf[16] = "";
	int fd = mkstemp(dst), in;

	check("boot_copy_after_cpio: what follows the cpio, alone",
	      boot_copy_after_cpio(path, dst) &&
	      read_text(dst, buf, sizeof(buf)) == 5 && !strcmp(buf, "IMAGE"));
	in = open(path, O_RDWR);
	ftruncate(in, end);
	check("boot_copy_after_cpio: nothing after the cpio, no copy",
	      !boot_copy_after_cpio(path, dst));
	pwrite(in, "junk..", 6, 0);
	check("boot_copy_after_cpio: no cpio, no copy", !boot_copy_after_cpio(path, dst));
	pwrite(in, "070701", 6, 0);
	close(in);
	close(fd);
	unlink(dst);
}

/* boot_part_uuid() of an MBR disk and a GPT disk, 4096-byte blocks, made in a
 * file: the forms the kernel's parsers give. */
static void test_part_uuid(void)
{
	char path[] = "/tmp/initrd_unit_disk.XXXXXX", uuid[37] = "";
	unsigned char s[512] = { 0 }, hdr[92] = { 0 }, e[128] = { 0 };
	static const unsigned char guid[16] = {
		0x2a, 0x0c, 0x1e, 0x5d, 0x7f, 0x1b, 0x3e, 0x4c,
		0x9a, 0x55, 0x6b, 0x2f, 0x4e, 0x8d, 0x9c, 0x10 };
	int fd = mkstemp(path);

	s[440] = 0x21, s[441] = 0x54, s[442] = 0x49, s[443] = 0x4b;
	s[510] = 0x55, s[511] = 0xaa;
	pwrite(fd, s, sizeof(s), 0);
	check("MBR: the disk's signature and the number in hex",
	      boot_part_uuid(path, 512, 10, uuid) && !strcmp(uuid, "4b495421-0a"));
	s[446 + 16 + 4] = 0xee;		/* a protective MBR, in entry 2 */
	pwrite(fd, s, sizeof(s), 0);
	memcpy(hdr, "EFI PART", 8);
	hdr[72] = 2;			/* entries from block 2 */
	hdr[80] = 4;			/* 4 of them */
	hdr[85] = 1;			/* of 256 bytes */
	pwrite(fd, hdr, sizeof(hdr), 4096);
	memcpy(e + 16, guid, 16);
	pwrite(fd, e, sizeof(e), 2 * 4096 + 2 * 256);
	check("GPT: entry 3's unique GUID, mixed-endian as the kernel prints it",
	      boot_part_uuid(path, 4096, 3, uuid) &&
	      !strcmp(uuid, "5d1e0c2a-1b7f-4c3e-9a55-6b2f4e8d9c10"));
	check("GPT: no partition 5 of 4", !boot_part_uuid(path, 4096, 5, uuid));
	s[510] = 0;
	pwrite(fd, s, sizeof(s), 0);
	check("no 55 aa: no partition table", !boot_part_uuid(path, 512, 1, uuid));
	close(fd);
	unlink(path);
}

/* An archive with two files, then other data: boot_cpio_end finds its end. */
static void test_cpio(void)
{
	char path[] = "/tmp/initrd_unit.XXXXXX", after[] = "IMAGE";
	struct kit_err err;
	struct cpio c = { .path = path, .err = &err };
	char buf[8];
	off_t end;

	c.fd = mkstemp(path);
	boot_cpio_data(&c, "a", S_IFREG | 0644, "x", 1);
	boot_cpio_header(&c, "dev/console", S_IFCHR | 0600, makedev(5, 1), 0);
	boot_cpio_data(&c, "TRAILER!!!", 0, NULL, 0);
	end = c.offset;
	check("the archive is padded to 4 bytes", end % 4 == 0);
	write_all(c.fd, after, 5);
	check("boot_cpio_end: the end of the trailer", boot_cpio_end(c.fd) == end);
	check("what follows starts there",
	      pread(c.fd, buf, 5, end) == 5 && !memcmp(buf, "IMAGE", 5));
	test_copy_after(path, end);
	pwrite(c.fd, "070702", 6, 0);
	check("another magic is no newc cpio", boot_cpio_end(c.fd) == 0);
	pwrite(c.fd, "070701", 6, 0);
	ftruncate(c.fd, end - 4);
	check("a cut trailer is no cpio", boot_cpio_end(c.fd) == 0);
	close(c.fd);
	unlink(path);
}

/* The cpio writer's errors come back to its caller, who says them: the
 * engine neither prints nor exits. */
static void test_cpio_errors(void)
{
	struct kit_err err = { 0 };
	struct cpio c = { .fd = -1, .path = "OUT", .err = &err };
	struct stat st;

	check("boot_cpio_data: a write error is returned",
	      boot_cpio_data(&c, "a", S_IFREG | 0644, "x", 1) == -1 &&
	      err.status == EXIT_RUNTIME &&
	      !strcmp(err.msg, "write error on OUT: Bad file descriptor"));
	check("boot_cpio_header: more than a newc entry holds is returned",
	      boot_cpio_header(&c, "big", S_IFREG | 0644, 0,
			  CPIO_FILE_MAX + 1) == -1 &&
	      !strcmp(err.msg, "big: 4294967296 bytes is more than a newc "
		      "cpio can hold"));
	check("open_regular: a directory is returned",
	      open_regular("/tmp", REMEDY_IMAGE, &st, &err) == -1 &&
	      !strcmp(err.msg, "/tmp is a directory; give the RAM disk "
		      "image's file"));
}

/*
 * An early microcode archive as the distributions make it (GNU cpio -H
 * newc: padded with NULs to 512 bytes), then kit's wrapper and the image:
 * boot_cpio_end() walks both archives and the NULs between, as
 * unpack_to_rootfs() does, and leaves the image its own.
 */
static void test_cpio_chain(void)
{
	char dir[] = "/tmp/initrd_unit_ucode.XXXXXX", cmd[512], path[300];
	struct kit_err err;
	struct cpio c = { .path = path, .err = &err };
	off_t ucode, wrapper;
	struct stat st;

	if (!mkdtemp(dir)) {
		check("a directory for the microcode archive", false);
		return;
	}
	snprintf(cmd, sizeof(cmd), "cd %s && mkdir -p kernel/x86/microcode && "
		 "head -c 3000 /dev/urandom >kernel/x86/microcode/"
		 "AuthenticAMD.bin && find kernel | cpio --quiet -o -H newc "
		 ">initrd", dir);
	snprintf(path, sizeof(path), "%s/initrd", dir);
	if (system(cmd) || stat(path, &st)) {
		check("cpio -H newc makes a microcode archive", false);
		return;
	}
	ucode = st.st_size;
	c.fd = open(path, O_RDWR | O_APPEND);
	check("boot_cpio_end: a microcode archive alone, 512-padded, is all cpio",
	      ucode % 512 == 0 && boot_cpio_end(c.fd) == ucode);
	c.offset = ucode;
	boot_cpio_data(&c, "init", S_IFREG | 0755, "kit", 3);
	boot_cpio_data(&c, "TRAILER!!!", 0, NULL, 0);
	wrapper = c.offset;
	write_all(c.fd, "\x1f\x8bIMAGE", 7);
	check("boot_cpio_end: microcode, the wrapper: the image's offset",
	      boot_cpio_end(c.fd) == wrapper);
	ftruncate(c.fd, wrapper);
	write_all(c.fd, "\0\0\0\0\0\0\0\0\x53\xef", 10);
	check("boot_cpio_end: NULs after the last archive are the image's (a raw "
	      "ext2's boot block)", boot_cpio_end(c.fd) == wrapper);
	ftruncate(c.fd, wrapper + 8);
	check("boot_cpio_end: only NULs after the archives: nothing follows",
	      boot_cpio_end(c.fd) == wrapper + 8);
	write_all(c.fd, "\x53", 1);
	check("boot_cpio_end: NULs, then one byte: the NULs are the image's",
	      boot_cpio_end(c.fd) == wrapper);
	ftruncate(c.fd, wrapper);
	write_all(c.fd, "0", 1);
	check("boot_cpio_end: one '0' after the archives: a header cut short",
	      boot_cpio_end(c.fd) == 0);
	ftruncate(c.fd, wrapper);
	check("boot_cpio_end: microcode and the wrapper, nothing after: all cpio",
	      boot_cpio_end(c.fd) == wrapper);
	pwrite(c.fd, "0X", 2, ucode);
	check("boot_cpio_end: a second archive that is no newc: none",
	      boot_cpio_end(c.fd) == 0);
	ftruncate(c.fd, 0);
	write_all(c.fd, "\0\0\0\0\x1f\x8bIMAGE", 11);
	check("boot_cpio_end: NULs, then no archive: none", boot_cpio_end(c.fd) == 0);
	close(c.fd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	system(cmd);
}

/* Runs the shell command fmt, made as printf makes it: its exit status. */
static int shell(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* boot_ext_matches() on images mke2fs made, in files: UUID= in any case, and
 * LABEL= whole, up to ext4's longest, 16 bytes with no NUL after. */
static void test_ext_matches(void)
{
	static const char *types[] = { "ext2", "ext3", "ext4" };
	const char *uuid = "5d1e0c2a-1b7f-4c3e-9a55-6b2f4e8d9c10";
	char path[] = "/tmp/initrd_unit_ext.XXXXXX", name[80];
	size_t i;

	close(mkstemp(path));
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		snprintf(name, sizeof(name), "boot_ext_matches: a %s image",
			 types[i]);
		if (shell("mke2fs -q -F -t %s -L kitlabel-16chars -U %s %s 4096 "
			  ">/dev/null 2>&1", types[i], uuid, path)) {
			check(name, false);
			continue;
		}
		check(name, boot_ext_matches(path, "LABEL=kitlabel-16chars") &&
		      boot_ext_matches(path, "UUID=5D1E0C2A-1B7F-4C3E-9A55-6B2F4E8D9C10"));
		snprintf(name, sizeof(name), "boot_ext_matches: %s: a label's "
			 "prefix, a longer label, another UUID: no", types[i]);
		check(name, !boot_ext_matches(path, "LABEL=kitlabel-16char") &&
		      !boot_ext_matches(path, "LABEL=kitlabel-16charsx") &&
		      !boot_ext_matches(path, "LABEL=") &&
		      !boot_ext_matches(path, "UUID=5d1e0c2a-1b7f-4c3e-9a55-6b2f4e8d9c11"));
	}
	shell("mke2fs -q -F -t ext4 -L short %s 4096 >/dev/null 2>&1", path);
	check("boot_ext_matches: a short label, whole",
	      boot_ext_matches(path, "LABEL=short") && !boot_ext_matches(path, "LABEL=shor"));
	shell("mkfs.minix %s >/dev/null 2>&1", path);
	check("boot_ext_matches: not ext: no", !boot_ext_matches(path, "LABEL="));
	unlink(path);
}

/*
 * root=PARTUUID= on a real disk: a GPT image in a file on a loop device,
 * with its partitions.  A prefix of the UUID matches,
 * as match_dev_by_uuid() compares; after the slash only PARTNROFF=N.
 */
static void test_partuuid_loop(void)
{
	char path[] = "/tmp/initrd_unit_gpt.XXXXXX", loop[64] = "", buf[64];
	char part[PATH_MAX], spec[128];
	dev_t dev = 0, p1 = 0, p2 = 0;
	FILE *out;

	close(mkstemp(path));
	if (shell("truncate -s 8M %s && printf 'label: gpt\nstart=2048, "
		  "size=2048, uuid=7a1c93e2-0b4d-4f6e-8a2c-91d3e5f7a0b1\n"
		  "start=4096\n' | sfdisk -q %s >/dev/null", path, path)) {
		check("sfdisk makes a GPT disk image", false);
		goto out;
	}
	snprintf(spec, sizeof(spec), "losetup -f -P --show %s", path);
	out = popen(spec, "r");
	if (!out || !fgets(loop, sizeof(loop), out) || pclose(out)) {
		check("a loop device for the GPT image (losetup -P)", false);
		goto out;
	}
	loop[strcspn(loop, "\n")] = '\0';
	/* A kernel without the GPT parser (CONFIG_EFI_PARTITION) scans
	 * none: partx adds them (BLKPG), as they are on the disk. */
	shell("partx -a %s 2>/dev/null", loop);
	snprintf(part, sizeof(part), "/sys/class/block/%sp1/dev", loop + 5);
	if (read_text(part, buf, sizeof(buf)) > 0)
		p1 = makedev(atoi(buf), atoi(strchr(buf, ':') + 1));
	snprintf(part, sizeof(part), "/sys/class/block/%sp2/dev", loop + 5);
	if (read_text(part, buf, sizeof(buf)) > 0)
		p2 = makedev(atoi(buf), atoi(strchr(buf, ':') + 1));
	check("PARTUUID=: the whole UUID, another case",
	      boot_root_device("PARTUUID=7A1C93E2-0B4D-4F6E-8A2C-91D3E5F7A0B1",
			  &dev) && dev == p1 && p1);
	check("PARTUUID=: a prefix, as the kernel's strncasecmp of its length",
	      boot_root_device("PARTUUID=7a1c93e2-0b4d-4f6e-8a2c", &dev) &&
	      dev == p1);
	check("PARTUUID=/PARTNROFF=1: the next partition",
	      boot_root_device("PARTUUID=7a1c93e2-0b4d-4f6e-8a2c-91d3e5f7a0b1"
			  "/PARTNROFF=1", &dev) && dev == p2 && p2);
	check("PARTUUID=: longer than the UUID, or junk after the slash, "
	      "or empty: none",
	      !boot_root_device("PARTUUID=7a1c93e2-0b4d-4f6e-8a2c-91d3e5f7a0b1a",
			   &dev) &&
	      !boot_root_device("PARTUUID=7a1c93e2/PARTNROFF=1x", &dev) &&
	      !boot_root_device("PARTUUID=7a1c93e2/junk", &dev) &&
	      !boot_root_device("PARTUUID=", &dev) &&
	      !boot_root_device("PARTUUID=/PARTNROFF=1", &dev));
	shell("losetup -d %s", loop);
out:
	unlink(path);
}

/* What the fake /linuxrc saw in real-root-dev, and what it writes. */
static unsigned int linuxrc_saw, linuxrc_writes;

static int fake_linuxrc(const struct boot *b, struct kit_err *e)
{
	(void)b, (void)e;
	if (boot_real_root_dev(&linuxrc_saw, false))
		linuxrc_saw = ~0U;
	if (linuxrc_writes)
		boot_real_root_dev(&linuxrc_writes, true);
	return 0;
}

static int failed_linuxrc(const struct boot *b, struct kit_err *e)
{
	(void)b;
	return kit_fail(e, EXIT_RUNTIME, 0, "linuxrc: failed");
}

/* handle_initrd()'s order on this kernel's real-root-dev: root= written
 * before /linuxrc runs, read after. */
static void test_real_root_dev(void)
{
	struct boot b = { .root = "8:1" };
	struct kit_err e;
	unsigned int saved;
	dev_t dev = 0;

	check("a /linuxrc that cannot run is an error, not a choice",
	      boot_linuxrc_chose_root(&b, &dev, &e, failed_linuxrc) == -1 &&
	      !strcmp(e.msg, "linuxrc: failed"));
	if (boot_real_root_dev(&saved, false)) {
		check("no real-root-dev (7.0+): /linuxrc cannot choose",
		      boot_linuxrc_chose_root(&b, &dev, &e,
					      fake_linuxrc) == 0);
		return;
	}
	linuxrc_writes = 0;
	check("real-root-dev: /linuxrc that writes nothing chose nothing",
	      boot_linuxrc_chose_root(&b, &dev, &e, fake_linuxrc) == 0);
	check("real-root-dev holds root= (8:1) while /linuxrc runs",
	      linuxrc_saw == 0x801);
	linuxrc_writes = 0x100;
	check("real-root-dev: /linuxrc that writes 0x100 chose the RAM disk",
	      boot_linuxrc_chose_root(&b, &dev, &e, fake_linuxrc) == 1 &&
	      dev == RAM0);
	linuxrc_writes = 0x10302;
	check("real-root-dev: /linuxrc that writes 259:2 chose it",
	      boot_linuxrc_chose_root(&b, &dev, &e, fake_linuxrc) == 1 &&
	      dev == makedev(259, 2));
	linuxrc_writes = boot_encode_dev(makedev(259, 300));
	check("real-root-dev: /linuxrc that writes 259:300 chose it",
	      boot_linuxrc_chose_root(&b, &dev, &e, fake_linuxrc) == 1 &&
	      dev == makedev(259, 300));
	linuxrc_writes = 0x801;
	check("real-root-dev: /linuxrc that writes root= again chose nothing",
	      boot_linuxrc_chose_root(&b, &dev, &e, fake_linuxrc) == 0);
	boot_real_root_dev(&saved, true);
}

static void test_names(void)
{
	char name[64];
	const char *p = "kernel/fs/ext4/ext4.ko.xz";

	boot_module_name(p, strlen(p), name, sizeof(name));
	check("boot_module_name: ext4.ko.xz is ext4", !strcmp(name, "ext4"));
	p = "kernel/drivers/virtio/virtio-ring.ko";
	boot_module_name(p, strlen(p), name, sizeof(name));
	check("boot_module_name: dashes are underscores",
	      !strcmp(name, "virtio_ring"));
	p = "kernel/lib/zstd/zstd_decompress.ko.zst: kernel/x.ko";
	boot_module_name(p, strcspn(p, ":"), name, sizeof(name));
	check("boot_module_name: up to the colon", !strcmp(name, "zstd_decompress"));
}

/* mkcpio compares /init's machine with the modules': e_machine from
 * either ELF class, in either byte order, and nothing from a non-ELF or
 * a short file. */
static void test_elf_machine(void)
{
	unsigned char h[sizeof(Elf64_Ehdr)] = { ELFMAG0, ELFMAG1, ELFMAG2,
						ELFMAG3, ELFCLASS64,
						ELFDATA2LSB };
	unsigned char self[sizeof(h)];
	int fd = open("/proc/self/exe", O_RDONLY);

	h[18] = EM_AARCH64;
	check("boot_elf_machine: a little-endian ELF64 header's e_machine",
	      boot_elf_machine(h, sizeof(h)) == EM_AARCH64);
	h[EI_CLASS] = ELFCLASS32;
	h[EI_DATA] = ELFDATA2MSB;
	h[18] = 0;
	h[19] = EM_ARM;
	check("boot_elf_machine: a big-endian ELF32 header's e_machine",
	      boot_elf_machine(h, sizeof(Elf32_Ehdr)) == EM_ARM);
	check("boot_elf_machine: less than a header is no machine",
	      boot_elf_machine(h, sizeof(Elf32_Ehdr) - 1) == 0);
	h[0] = '#';
	check("boot_elf_machine: a script is no machine",
	      boot_elf_machine(h, sizeof(h)) == 0);
	check("boot_elf_machine: this program is one kit builds for",
	      fd >= 0 && read(fd, self, sizeof(self)) == sizeof(self) &&
	      boot_machine_arch(boot_elf_machine(self, sizeof(self))));
	check("boot_machine_arch: the Makefile's ARCH= names",
	      !strcmp(boot_machine_arch(EM_X86_64), "x86") &&
	      !strcmp(boot_machine_arch(EM_AARCH64), "arm64") &&
	      !strcmp(boot_machine_arch(EM_ARM), "arm") &&
	      !strcmp(boot_machine_arch(EM_RISCV), "riscv") &&
	      !boot_machine_arch(EM_386));
	if (fd >= 0)
		close(fd);
}

static void test_devices(void)
{
	dev_t dev = 0;

	check("boot_encode_dev 1:0 is 0x100", boot_encode_dev(RAM0) == 0x100);
	check("boot_encode_dev 8:1 is 0x801", boot_encode_dev(makedev(8, 1)) == 0x801);
	check("boot_encode_dev 259:300 is 0x11032c (minor's high bits at 20)",
	      boot_encode_dev(makedev(259, 300)) == 0x11032c);
	check("root=1:0 is the RAM disk", boot_root_device("1:0", &dev) &&
	      dev == RAM0);
	check("root=0100 (old hex) is the RAM disk",
	      boot_root_device("0100", &dev) && dev == RAM0);
	check("root=/dev/ram is the RAM disk",
	      boot_root_device("/dev/ram", &dev) && dev == RAM0);
	check("root=0301 is 3:1", boot_root_device("0301", &dev) &&
	      dev == makedev(3, 1));
	check("root=/dev/nosuchdisk is not found",
	      !boot_root_device("/dev/nosuchdisk", &dev));
}

int main(void)
{
	test_cmdline();
	test_rootwait();
	test_cmdline_kernel();
	test_wait_root();
	test_part_uuid();
	test_cpio();
	test_cpio_errors();
	test_cpio_chain();
	test_names();
	test_elf_machine();
	test_devices();
	test_ext_matches();
	test_partuuid_loop();
	test_real_root_dev();
	return unit_status();
}
