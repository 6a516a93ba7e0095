// SPDX-License-Identifier: GPL-2.0
/*
 * cpioend: where the newc archives at the start of an initrd end, walked
 * as the kernel's unpack_to_rootfs() walks them, and what follows them:
 * the old image that kit's wrapper cpio was put in front of.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/kit.h"
#include "boot/boot.h"

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
off_t boot_cpio_end(int fd)
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
 * the kernel kept whole), copied to dst: 1.  0 when src is missing, is no
 * cpio, or nothing follows it.  COPY_NO_FILE when dst cannot be made,
 * COPY_NO_ROOM when it cannot be written (memory, for the boot), with
 * errno.
 */
int boot_copy_after_cpio(const char *src, const char *dst)
{
	int in = open(src, O_RDONLY | O_CLOEXEC), out, ret = 1;
	char buf[65536];
	off_t pos;
	ssize_t n;

	if (in < 0)
		return 0;
	pos = boot_cpio_end(in);
	n = pos ? pread(in, buf, 1, pos) : 0;
	out = n > 0 ? open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			   0600) : -1;
	if (n <= 0)
		ret = 0;
	else if (out < 0)
		ret = COPY_NO_FILE;
	while (ret > 0 && (n = pread(in, buf, sizeof(buf), pos)) > 0) {
		if (write_all(out, buf, n) < 0)
			ret = COPY_NO_ROOM;
		pos += n;
	}
	close(in);
	if (out >= 0)
		close(out);
	return ret;
}
