// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: initrd's boot_cpio_end() (applets/boot/cpioend.c),
 * where /init finds the image after the initrd's leading newc archives,
 * on any bytes in a memory file.  A crash, a sanitizer report, a hang,
 * or an end that breaks what boot_cpio_end() promises is a bug: the end
 * is 0, the input's size, or a 4-byte boundary inside it, after at least
 * one header (NULs may come first), where no further archive starts
 * after NULs.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iapplets \
 *         tests/cpio_fuzz.c applets/boot/cpioend.c applets/core/lib.c
 *
 * tests/rdload_fuzz.t builds it and runs it on seeds made by cpio.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "boot/boot.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	size_t first = 0;
	off_t end;

	if (fd < 0 && (fd = memfd_create("cpio_fuzz", 0)) < 0)
		abort();
	if (ftruncate(fd, 0) || (size && pwrite(fd, data, size, 0) != (ssize_t)size))
		abort();
	end = boot_cpio_end(fd);
	if (end < 0 || (size_t)end > size)
		abort();
	while (first < size && !data[first])
		first++;
	if (end && (size - first < NEWC_HDR_SIZE ||
		    memcmp(data + first, NEWC_MAGIC, 6)))
		abort();
	if (!end)
		return 0;
	if (end & 3 && (size_t)end != size)
		abort();
	while ((size_t)end < size && !data[end])
		end++;
	if ((size_t)end < size && data[end] == '0' && !(end & 3))
		abort();
	return 0;
}
