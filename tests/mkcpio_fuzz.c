// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: mkcpio's module unpacking (boot_unpack_module_data() in
 * applets/boot/kmodunpack.c), on any bytes, as a plain .ko and as each compression
 * a module may have (.ko.xz, .ko.gz, .ko.zst).  A crash, a sanitizer
 * report, a hang, or a module accepted that is not an ELF file within
 * its buffer is a bug.
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iapplets \
 *         tests/mkcpio_fuzz.c applets/boot/kmodunpack.c applets/core/lib.c \
 *         -lz -llzma -lzstd
 *
 * tests/rdload_fuzz.t builds it and runs it on seeds made by the real
 * tools.  The first input byte picks the file name's suffix.
 */
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "boot/mkcpio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = {
		"m.ko", "m.ko.xz", "m.ko.gz", "m.ko.zst",
	};
	struct unpacked u;
	const char *why;

	if (!size)
		return 0;
	why = boot_unpack_module_data(paths[data[0] & 3], data + 1, size - 1,
				      &u);
	if (!why && (u.size > u.cap || u.size < SELFMAG ||
		     memcmp(u.data, ELFMAG, SELFMAG)))
		abort();
	free(u.data);
	return 0;
}
