// SPDX-License-Identifier: GPL-2.0
/*
 * skelpack: a build tool.  It reads a skeleton header that `bpftool gen
 * skeleton` wrote and writes it again with the BPF object it embeds
 * deflated: the ELF of a skeleton (NAME__elf_bytes()), the loader's data
 * and instructions of a light skeleton (opts.data, opts.insns).  Each
 * becomes a zlib stream that sock/bpfblob.c inflates on first use.
 *
 * bpftool writes each as a string literal (print_hex() in
 * tools/bpf/bpftool/gen.c): a line ending in `"\`, then lines of `\0`
 * and `\xNN` escapes continued with `\`, the last ending in `";`.  Where
 * the literal stands differs by release, and both are read:
 *   bpftool 7.1 (Debian 12): in the statement that uses it,
 *	opts.data = (void *)"\          return (const void *)"\
 *   bpftool 7.5 (Debian 13): an aligned array, used by name below,
 *	static const char opts_data[] __attribute__((__aligned__(8))) = "\
 *	opts.data_sz = sizeof(opts_data) - 1;
 *	opts.data = (void *)opts_data;
 * An array is packed when such a use follows it (opts.data =, opts.insns
 * =, return): its declaration goes, `sizeof(NAME)` becomes the size and
 * `(void *)NAME` the inflated blob.  Anything else, the small map images
 * included, is copied as it is.  tests/build.t runs both bpftools.
 *
 * usage: skelpack < NAME.skel.h > packed.skel.h
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define INLINE_OPENER "void *)\"\\\n"
#define ARRAY_DECL "static const char "
#define ARRAY_OPENER " = \"\\\n"

static char **lines;
static size_t nlines;
static unsigned char *bytes;
static size_t nbytes;

static void fail(const char *what)
{
	fprintf(stderr, "skelpack: %s\n", what);
	exit(1);
}

/* Room for element n: doubled when n is a power of two. */
static void *grow(void *p, size_t n, size_t size)
{
	if (n & (n - 1))
		return p;
	p = realloc(p, (n ? 2 * n : 1) * size);
	if (!p)
		fail("out of memory");
	return p;
}

static void read_lines(void)
{
	char *line = NULL;
	size_t cap = 0;

	while (getline(&line, &cap, stdin) > 0) {
		lines = grow(lines, nlines, sizeof(*lines));
		lines[nlines++] = line;
		line = NULL;
	}
	free(line);
}

static void put_byte(unsigned char c)
{
	bytes = grow(bytes, nbytes, 1);
	bytes[nbytes++] = c;
}

/* The literal's body from line i on into bytes; the line after it. */
static size_t read_body(size_t i)
{
	const char *s;

	for (nbytes = 0; i < nlines; i++)
		for (s = lines[i]; *s && *s != '\n';) {
			if (s[0] == '"' && s[1] == ';')
				return i + 1;
			if (s[0] != '\\')
				put_byte(*s++);
			else if (s[1] == '\n')
				s++;
			else if (s[1] == '0')
				put_byte(0), s += 2;
			else if (s[1] == 'x' && s[2] && s[3])
				put_byte(strtoul((char[]){ s[2], s[3], 0 },
						 NULL, 16)), s += 4;
			else
				fail("an escape bpftool does not write");
		}
	fail("a literal without its end");
	return 0;
}

/* The deflated bytes as blobN, a struct bpf_blob. */
static void put_blob(int serial)
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
	free(z);
}

/* A statement that takes the object: the loader's or the ELF's. */
static int takes_object(const char *line)
{
	return strstr(line, "opts.data = ") || strstr(line, "opts.insns = ") ||
	       strstr(line, "return (const void *)");
}

/* 7.1's form: the literal in the statement at line i. */
static size_t pack_inline(size_t i, int serial)
{
	char *statement = lines[i];
	size_t next = read_body(i + 1);

	put_blob(serial);
	*strrchr(statement, '(') = 0;
	printf("%s(void *)sock_bpf_blob(&blob%d);\n", statement, serial);
	return next;
}

/* The array's name if line is 7.5's declaration, else NULL. */
static char *array_name(const char *line, char *name, size_t size)
{
	const char *s = strstr(line, ARRAY_DECL), *end;

	if (!s || !strstr(line, ARRAY_OPENER))
		return NULL;
	s += strlen(ARRAY_DECL);
	end = strchr(s, '[');
	if (!end || (size_t)(end - s) >= size)
		return NULL;
	memcpy(name, s, end - s);
	name[end - s] = 0;
	return name;
}

/* The arrays packed in the function being copied, by name. */
static struct packed {
	char name[64];
	int serial;
	size_t size;
} packed[8];
static int npacked;

static int ident_char(char c)
{
	return c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/* The length of `WHAT(NAME)` or `WHAT)NAME` at s, or 0. */
static size_t names(const char *s, const char *what, const char *name)
{
	size_t lw = strlen(what), ln = strlen(name);

	if (strncmp(s, what, lw) || strncmp(s + lw, name, ln))
		return 0;
	if (what[lw - 1] == '(')
		return s[lw + ln] == ')' ? lw + ln + 1 : 0;
	return ident_char(s[lw + ln]) ? 0 : lw + ln;
}

/* A line with `sizeof(NAME)` and `(void *)NAME` of a packed array replaced. */
static void put_line(const char *line)
{
	size_t n;
	int k;

	while (*line) {
		for (k = 0; k < npacked; k++) {
			if ((n = names(line, "sizeof(", packed[k].name))) {
				printf("(%zu + 1)", packed[k].size);
				break;
			}
			if ((n = names(line, "void *)", packed[k].name))) {
				printf("void *)sock_bpf_blob(&blob%d)",
				       packed[k].serial);
				break;
			}
		}
		if (k < npacked)
			line += n;
		else
			putchar(*line++);
	}
}

/*
 * 7.5's form: the array declared at line i, packed if a statement that
 * takes the object names it before its function ends.  Returns the line
 * after the array, or i when it is not packed.
 */
static size_t pack_array(size_t i, const char *name, int serial)
{
	char cast[80];
	size_t next = read_body(i + 1), j;

	snprintf(cast, sizeof(cast), "void *)%s;", name);
	for (j = next; j < nlines && lines[j][0] != '}'; j++)
		if (strstr(lines[j], cast))
			break;
	if (j == nlines || !takes_object(lines[j]))
		return i;
	if (npacked == sizeof(packed) / sizeof(*packed))
		fail("too many objects in one function");
	put_blob(serial);
	strcpy(packed[npacked].name, name);
	packed[npacked].serial = serial;
	packed[npacked++].size = nbytes;
	return next;
}

int main(void)
{
	char name[64];
	size_t i = 0, next;
	int serial = 0, included = 0;

	read_lines();
	while (i < nlines) {
		if (!included && !strncmp(lines[i], "#include", 8)) {
			puts("#include \"sock/bpfblob.h\"");
			included = 1;
		}
		if (lines[i][0] == '}')
			npacked = 0;
		if (strstr(lines[i], INLINE_OPENER) && takes_object(lines[i]))
			i = pack_inline(i, serial++);
		else if (array_name(lines[i], name, sizeof(name)) &&
			 (next = pack_array(i, name, serial)) != i)
			i = next, serial++;
		else
			put_line(lines[i++]);
	}
	if (!serial)
		fail("no embedded object found");
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}
