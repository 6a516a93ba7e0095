// SPDX-License-Identifier: GPL-2.0
/*
 * kmodunpack: a module file as the kernel's finit_module() takes it,
 * unpacked from xz, gzip or zstd, so that /init loads it on any kernel.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <limits.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include "boot/mkcpio.h"

/* ---- the machine an ELF file is for ---- */

unsigned int boot_elf_machine(const unsigned char *data, size_t len)
{
	const unsigned char *m;

	if (len < sizeof(Elf32_Ehdr) || memcmp(data, ELFMAG, SELFMAG))
		return 0;
	/* e_machine has the same place in ELF32 and ELF64 headers. */
	m = data + offsetof(Elf32_Ehdr, e_machine);
	if (data[EI_DATA] == ELFDATA2MSB)
		return m[0] << 8 | m[1];
	return m[1] << 8 | m[0];
}

/* The architectures kit builds for, as the Makefile's ARCH= names them. */
const char *boot_machine_arch(unsigned int machine)
{
	switch (machine) {
	case EM_X86_64:
		return "x86";
	case EM_AARCH64:
		return "arm64";
	case EM_ARM:
		return "arm";
	case EM_RISCV:
		return "riscv";
	}
	return NULL;
}

/* ---- what kind of ELF file /init would be ---- */

/* An ELF file's class and byte order, and its fd where it is read. */
struct elf_file {
	bool is64, msb;
	int fd;
};

/* A field of an ELF32 or ELF64 structure at p, of either byte order. */
#define ELF_FIELD(ef, type, field) ((ef)->is64 ?			\
	elf_get((ef), p + offsetof(Elf64_##type, field),		\
		sizeof(((Elf64_##type *)0)->field)) :			\
	elf_get((ef), p + offsetof(Elf32_##type, field),		\
		sizeof(((Elf32_##type *)0)->field)))
#define ELF_SIZE(ef, type) \
	((ef)->is64 ? sizeof(Elf64_##type) : sizeof(Elf32_##type))

static uint64_t elf_get(const struct elf_file *ef, const unsigned char *p,
			size_t size)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < size; i++)
		v |= (uint64_t)p[ef->msb ? size - 1 - i : i] << (8 * i);
	return v;
}

/* ef from an ELF header's first len bytes; false when they are fewer
 * than the header of its class. */
static bool elf_header(struct elf_file *ef, const unsigned char *hdr,
		       size_t len, int fd)
{
	if (len < sizeof(Elf32_Ehdr))
		return false;
	*ef = (struct elf_file){ hdr[EI_CLASS] == ELFCLASS64,
				 hdr[EI_DATA] == ELFDATA2MSB, fd };
	return len >= ELF_SIZE(ef, Ehdr);
}

/* The file's bytes [off, off + size) in a new buffer, or NULL. */
static unsigned char *elf_read(const struct elf_file *ef, uint64_t off,
			       uint64_t size)
{
	unsigned char *buf;

	/* Program headers and a static PIE's dynamic section are small. */
	if (!size || size > 1 << 20 || !(buf = malloc(size)))
		return NULL;
	if (pread(ef->fd, buf, size, off) != (ssize_t)size) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Whether the PT_DYNAMIC segment at p has DF_1_PIE in DT_FLAGS_1: a
 * PIE, which a shared library is not. */
static bool elf_is_pie(const struct elf_file *ef, const unsigned char *ph)
{
	const unsigned char *p = ph;
	uint64_t size = ELF_FIELD(ef, Phdr, p_filesz), i;
	unsigned char *dyn = elf_read(ef, ELF_FIELD(ef, Phdr, p_offset), size);
	bool pie = false;

	for (i = 0; dyn && i + ELF_SIZE(ef, Dyn) <= size;
	     i += ELF_SIZE(ef, Dyn)) {
		p = dyn + i;
		if (ELF_FIELD(ef, Dyn, d_tag) == DT_FLAGS_1)
			pie = ELF_FIELD(ef, Dyn, d_un) & DF_1_PIE;
	}
	free(dyn);
	return pie;
}

const char *boot_elf_not_init(int fd, const unsigned char *hdr, size_t len)
{
	struct elf_file ef;
	const unsigned char *p = hdr;
	uint64_t type, phoff, phentsize, phnum, i;
	unsigned char *ph;
	const char *why = NULL;
	bool interp = false, pie = false;

	if (!elf_header(&ef, hdr, len, fd))
		return "cut short";
	type = ELF_FIELD(&ef, Ehdr, e_type);
	if (type == ET_REL)
		return "a relocatable object (a .o or a kernel module), not a "
		       "program";
	if (type != ET_EXEC && type != ET_DYN)
		return "no ELF program (a core dump?)";
	phoff = ELF_FIELD(&ef, Ehdr, e_phoff);
	phentsize = ELF_FIELD(&ef, Ehdr, e_phentsize);
	phnum = ELF_FIELD(&ef, Ehdr, e_phnum);
	if (phentsize < ELF_SIZE(&ef, Phdr) ||
	    !(ph = elf_read(&ef, phoff, phnum * phentsize)))
		return "damaged: its program headers cannot be read";
	for (i = 0; i < phnum; i++) {
		p = ph + i * phentsize;
		if (ELF_FIELD(&ef, Phdr, p_type) == PT_INTERP)
			interp = true;
		else if (ELF_FIELD(&ef, Phdr, p_type) == PT_DYNAMIC)
			pie = elf_is_pie(&ef, p);
	}
	free(ph);
	/* load_elf_binary() runs an ET_DYN without PT_INTERP where it
	 * lies: a static PIE, or a library that crashes. */
	if (interp)
		why = "dynamically linked (the loader it names is not in the "
		      "archive)";
	else if (type == ET_DYN && !pie)
		why = "a shared library, not a program";
	return why;
}

/*
 * Why a module's ELF bytes (len of them) are no module the kernel loads,
 * or NULL: a relocatable object (ET_REL) whose section headers lie in
 * the file, as load_module()'s elf_validity_check() requires.  Checked
 * unpacked, so an uncompressed module cut short is caught as a
 * compressed one is.
 */
static const char *elf_module_damaged(const unsigned char *data, size_t len)
{
	struct elf_file ef;
	const unsigned char *p = data;
	uint64_t shoff, shnum, shentsize;

	if (!elf_header(&ef, data, len, -1))
		return "is damaged: cut short";
	if (ELF_FIELD(&ef, Ehdr, e_type) != ET_REL)
		return "is damaged: an ELF file, but no module (not ET_REL)";
	shoff = ELF_FIELD(&ef, Ehdr, e_shoff);
	shentsize = ELF_FIELD(&ef, Ehdr, e_shentsize);
	shnum = ELF_FIELD(&ef, Ehdr, e_shnum);
	if (shentsize < ELF_SIZE(&ef, Shdr) || shoff > len ||
	    shnum * shentsize > len - shoff)
		return "is damaged: cut short";
	return NULL;
}

/* ---- mkcpio: a module as the kernel's finit_module() takes it ---- */

/* More room for the output, doubling: false when out of memory, or
 * when a newc entry could not hold it (a bomb, or damage). */
static bool more_room(struct unpacked *u, size_t in_size)
{
	size_t need = u->cap ? u->cap + 1 : 4 * in_size + 4096;
	unsigned char *data;

	if (u->cap >= CPIO_FILE_MAX)
		return false;
	data = grow(u->data, &u->cap, need, 1);
	if (!data)
		return false;
	u->data = data;
	return true;
}

/* Where the output goes on, with room after it; NULL when no more room
 * is had. */
static unsigned char *out_room(struct unpacked *u, size_t in_size)
{
	if (u->size == u->cap && !more_room(u, in_size))
		return NULL;
	return u->data + u->size;
}

/*
 * Each decoder runs until its stream ends (UNPACKED), the input ends
 * first or is wrong (DAMAGED), or no more room is had (TOO_BIG).  Each
 * reads one stream, as the kernel's module_decompress() does.
 */
enum unpack { UNPACKED, DAMAGED, TOO_BIG };

static enum unpack unpack_xz(const unsigned char *in, size_t size,
			     struct unpacked *u)
{
	lzma_stream xz = LZMA_STREAM_INIT;
	lzma_ret ret = LZMA_OK;

	if (lzma_stream_decoder(&xz, UINT64_MAX, 0) != LZMA_OK)
		return TOO_BIG;
	xz.next_in = in, xz.avail_in = size;
	while (ret == LZMA_OK && (xz.next_out = out_room(u, size))) {
		xz.avail_out = u->cap - u->size;
		ret = lzma_code(&xz, LZMA_FINISH);
		u->size = u->cap - xz.avail_out;
	}
	lzma_end(&xz);
	return ret == LZMA_STREAM_END ? UNPACKED :
	       ret == LZMA_OK ? TOO_BIG : DAMAGED;
}

static enum unpack unpack_gz(const unsigned char *in, size_t size,
			     struct unpacked *u)
{
	z_stream z = { .next_in = (unsigned char *)in, .avail_in = size };
	int ret = Z_OK;

	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return TOO_BIG;
	while (ret == Z_OK && (z.next_out = out_room(u, size))) {
		z.avail_out = u->cap - u->size;
		ret = inflate(&z, Z_NO_FLUSH);
		u->size = u->cap - z.avail_out;
		/* No progress with room left: the input ended early. */
		if (ret == Z_BUF_ERROR && z.avail_out)
			break;
		if (ret == Z_BUF_ERROR)
			ret = Z_OK;
	}
	inflateEnd(&z);
	return ret == Z_STREAM_END ? UNPACKED :
	       ret == Z_OK ? TOO_BIG : DAMAGED;
}

static enum unpack unpack_zst(const unsigned char *in, size_t size,
			      struct unpacked *u)
{
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	ZSTD_inBuffer zin = { in, size, 0 };
	ZSTD_outBuffer zout;
	size_t ret = 1;
	enum unpack result = TOO_BIG;

	while (dctx && ret && out_room(u, size)) {
		zout = (ZSTD_outBuffer){ u->data, u->cap, u->size };
		ret = ZSTD_decompressStream(dctx, &zout, &zin);
		u->size = zout.pos;
		/* An error, or no more input and room left: damage. */
		if (ZSTD_isError(ret) ||
		    (ret && zin.pos == zin.size && zout.pos < zout.size)) {
			result = DAMAGED;
			break;
		}
	}
	if (dctx && !ret)
		result = UNPACKED;
	ZSTD_freeDCtx(dctx);
	return result;
}

/*
 * in, the file path names, as the kernel's finit_module() takes it:
 * unpacked as its suffix says, and an ELF file (what load_module()
 * checks first, elf_validity_cache_copy()), never empty.  NULL, with
 * *u the module, or why not.
 */
const char *boot_unpack_module_data(const char *path, const unsigned char *in,
				    size_t size, struct unpacked *u)
{
	enum unpack ret = UNPACKED;

	*u = (struct unpacked){ NULL, 0, 0 };
	if (!size)
		return "is damaged: it is empty";
	if (strstr(path, ".ko.xz"))
		ret = unpack_xz(in, size, u);
	else if (strstr(path, ".ko.zst"))
		ret = unpack_zst(in, size, u);
	else if (strstr(path, ".ko.gz"))
		ret = unpack_gz(in, size, u);
	else if (strstr(path, ".ko."))
		return "uses a compression kit does not know";
	else if ((u->data = malloc(size + 1)))
		memcpy(u->data, in, u->size = u->cap = size);
	else
		ret = TOO_BIG;
	if (ret == DAMAGED)
		return "is damaged: it does not decompress";
	if (ret == TOO_BIG)
		return "is too big: out of memory, or more than a newc "
		       "cpio holds";
	if (u->size < SELFMAG || memcmp(u->data, ELFMAG, SELFMAG))
		return "is damaged: not an ELF module";
	return elf_module_damaged(u->data, u->size);
}
