// SPDX-License-Identifier: GPL-2.0
/*
 * skelpack: a build tool.  It reads a skeleton header that `bpftool gen
 * skeleton` wrote and writes it again with the BPF object it embeds
 * deflated: the ELF of a skeleton (NAME__elf_bytes()), the loader's data
 * and instructions of a light skeleton (opts.data, opts.insns).  Each
 * becomes a zlib stream that sock/bpfblob.c inflates on first use.
 *
 * bpftool writes those literals as one line ending in `(void *)"\`, then
 * lines of `\0` and `\xNN` escapes continued with `\`, the last ending in
 * `";` (print_hex() in tools/bpf/bpftool/gen.c).  Anything else, the
 * small map images included, is copied as it is.
 *
 * usage: skelpack < NAME.skel.h > packed.skel.h
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define OPENER "(void *)\"\\\n"

static unsigned char *bytes;
static size_t nbytes, cap;

static void fail(const char *what)
{
	fprintf(stderr, "skelpack: %s\n", what);
	exit(1);
}

static void put_byte(unsigned char c)
{
	if (nbytes == cap) {
		cap = cap ? 2 * cap : 65536;
		bytes = realloc(bytes, cap);
		if (!bytes)
			fail("out of memory");
	}
	bytes[nbytes++] = c;
}

/* One line of the literal's body; returns 1 at its closing `";`. */
static int read_body_line(const char *s)
{
	while (*s && *s != '\n') {
		if (s[0] == '"' && s[1] == ';')
			return 1;
		if (s[0] != '\\')
			put_byte(*s++);
		else if (s[1] == '\n')
			s++;
		else if (s[1] == '0')
			put_byte(0), s += 2;
		else if (s[1] == 'x' && s[2] && s[3])
			put_byte(strtoul((char[]){ s[2], s[3], 0 }, NULL, 16)),
				s += 4;
		else
			fail("an escape bpftool does not write");
	}
	return 0;
}

/* Ends the statement begun by prefix with the deflated literal. */
static void put_blob(const char *prefix, int serial)
{
	uLongf zlen = compressBound(nbytes);
	unsigned char *z = malloc(zlen);
	uLongf i;

	if (!z || compress2(z, &zlen, bytes, nbytes, 9) != Z_OK)
		fail("deflate failed");
	printf("\tstatic const unsigned char blob%d_z[] = {", serial);
	for (i = 0; i < zlen; i++)
		printf("%s0x%02x,", i % 16 ? "" : "\n\t\t", z[i]);
	printf("\n\t};\n\tstatic struct bpf_blob blob%d = "
	       "{ .z = blob%d_z, .z_size = sizeof(blob%d_z), .size = %zu };\n",
	       serial, serial, serial, nbytes);
	printf("%s(void *)bpf_blob_get(&blob%d);\n", prefix, serial);
	free(z);
}

static int packs(const char *line)
{
	return strstr(line, "opts.data = " OPENER) ||
	       strstr(line, "opts.insns = " OPENER) ||
	       strstr(line, "return (const void *)\"\\\n");
}

int main(void)
{
	char line[4096], body[4096];
	int serial = 0, included = 0;

	while (fgets(line, sizeof(line), stdin)) {
		if (!included && !strncmp(line, "#include", 8)) {
			puts("#include \"sock/bpfblob.h\"");
			included = 1;
		}
		if (!packs(line)) {
			fputs(line, stdout);
			continue;
		}
		*strrchr(line, '(') = 0;
		nbytes = 0;
		do {
			if (!fgets(body, sizeof(body), stdin))
				fail("a literal without its end");
		} while (!read_body_line(body));
		put_blob(line, serial++);
	}
	if (!serial)
		fail("no embedded object found");
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
