// SPDX-License-Identifier: GPL-2.0
/*
 * ledclass: multicolor LEDs through the LED class files in sysfs
 * (Documentation/ABI/testing/sysfs-class-led-multicolor): found by name,
 * read, checked and written, triggers included, and the kernel's
 * arithmetic on what it drives.  Errors are returned in a struct kit_err;
 * mcled decides and prints.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/kit.h"
#include "led/ledclass.h"

static const char *const trig_attrs[][TRIG_ATTRS + 1] = {
	{ "timer", "delay_on", "delay_off" },
	{ "pattern", "pattern", "repeat" },
	{ "heartbeat", "invert" },
};

/* Is name one of the words of COLOR_NAMES? */
bool led_known_color(const char *name)
{
	size_t len = strlen(name), wlen;
	const char *word = COLOR_NAMES;

	while (len && *word) {
		wlen = strcspn(word, " ");
		if (wlen == len && !strncmp(word, name, len))
			return true;
		word += wlen + (word[wlen] == ' ');
	}
	return false;
}

/* multi_index ("green blue red") into color[]; -1 when it does not fit. */
int led_split_colors(char *line, char color[][COLOR_LEN])
{
	char *word, *save;
	int n = 0;

	for (word = strtok_r(line, " ", &save); word;
	     word = strtok_r(NULL, " ", &save)) {
		if (n == MAX_COLORS || strlen(word) >= COLOR_LEN)
			return -1;
		strcpy(color[n++], word);
	}
	return n ? n : -1;
}

/* multi_intensity ("43 226 138") into value[]; -1 when malformed. */
int led_parse_intensities(const char *line, long *value, int max)
{
	const char *p = line;
	char *end;
	int n = 0;

	for (;;) {
		p += strspn(p, " ");
		if (!*p)
			return n;
		if (n == max)
			return -1;
		errno = 0;
		value[n++] = strtol(p, &end, 10);
		if (end == p || errno || (*end && *end != ' '))
			return -1;
		p = end;
	}
}

/* "v1 v2 ... vn\n": the kernel refuses a space before the newline. */
void led_format_intensities(const long *value, int n, char *buf,
			    size_t size)
{
	size_t len = 0;
	int i;

	for (i = 0; i < n && len < size; i++)
		len += snprintf(buf + len, size - len, i ? " %ld" : "%ld",
				value[i]);
	if (len < size)
		snprintf(buf + len, size - len, "\n");
}

/*
 * An intensity or brightness as the kernel's %i reads it (sysfs does):
 * decimal, 0x hex, leading-0 octal.
 */
int led_parse_value(const char *s, long *value)
{
	unsigned long v;

	if (parse_ulong(s, 0, 0, LONG_MAX, &v))
		return -1;
	*value = v;
	return 0;
}

/* "RRGGBB", six hex digits (after the '#'), into rgb[]; -1 otherwise. */
int led_parse_rgb(const char *s, unsigned char rgb[3])
{
	char byte[3] = "";
	int i;

	if (strlen(s) != 6 || strspn(s, "0123456789abcdefABCDEF") != 6)
		return -1;
	for (i = 0; i < 3; i++) {
		memcpy(byte, s + 2 * i, 2);
		rgb[i] = strtoul(byte, NULL, 16);
	}
	return 0;
}

/* A color component 0..255 as an intensity 0..max, rounded. */
long led_scale_component(unsigned int component, long max)
{
	return (component * max + 127) / 255;
}

/*
 * What the kernel drives on one color (led_mc_calc_color_components()),
 * in its unsigned int arithmetic, wrap-around included.
 */
unsigned int led_driven_value(unsigned int brightness,
			      unsigned int intensity, unsigned int max,
			      bool closest)
{
	unsigned int product = brightness * intensity;

	if (!max)
		return 0;
	return closest ? (product + max / 2) / max : product / max;
}

/*
 * Does kernel version v (n numbers of it read) round each color's value
 * to closest?  Commit 065d099f1be5 made it so in 6.6; stable took it
 * into 6.5.3, 6.4.16, 6.1.53 and 5.15.132 (not 5.10).
 */
bool led_version_rounds(const int v[3], int n)
{
	static const int since[][3] = {
		{ 5, 15, 132 }, { 6, 1, 53 }, { 6, 4, 16 }, { 6, 5, 3 },
	};
	size_t i;

	if (n < 2)
		return true;	/* unknown: assume today's kernels */
	if (v[0] > 6 || (v[0] == 6 && v[1] >= 6))
		return true;
	for (i = 0; i < sizeof(since) / sizeof(since[0]); i++)
		if (v[0] == since[i][0] && v[1] == since[i][1])
			return v[2] >= since[i][2];
	return false;
}

bool led_kernel_rounds(void)
{
	int v[3];

	return led_version_rounds(v, running_version(v));
}

const char *led_class_dir(void)
{
	static char dir[PATH_MAX];

	if (!*dir)
		snprintf(dir, sizeof(dir), "%s/class/leds", sysfs_root());
	return dir;
}

/* KIT_SYSFS/class/leds/NAME/ATTR into path (PATH_MAX bytes). */
static int attr_path(const char *name, const char *attr, char *path,
		     struct kit_err *e)
{
	if (snprintf(path, PATH_MAX, "%s/%s/%s", led_class_dir(), name, attr) <
	    PATH_MAX)
		return 0;
	return kit_fail(e, EXIT_RUNTIME, 0, "path too long: %s/%s/%s",
			led_class_dir(), name, attr);
}

/* 1, 0 when the LED has no such file, -1 with *e. */
static int read_optional_attr(const struct led *led, const char *attr,
			      char *buf, size_t size, struct kit_err *e)
{
	char path[PATH_MAX];

	if (attr_path(led->name, attr, path, e))
		return -1;
	if (read_text(path, buf, size) >= 0)
		return 1;
	if (errno == ENOENT)
		return 0;
	return kit_fail(e, EXIT_RUNTIME, errno, "cannot read %s", path);
}

int led_read_attr(const struct led *led, const char *attr, char *buf,
		  size_t size, struct kit_err *e)
{
	char path[PATH_MAX];
	int ret = read_optional_attr(led, attr, buf, size, e);

	if (ret)
		return ret < 0 ? -1 : 0;
	attr_path(led->name, attr, path, e);
	return kit_fail(e, EXIT_RUNTIME, ENOENT, "cannot read %s", path);
}

/* multi_intensity or multi_max_intensity: a number per color */
static int read_per_color(const struct led *led, const char *attr,
			  char *buf, long *value, struct kit_err *e)
{
	if (led_parse_intensities(buf, value, MAX_COLORS) == led->ncolors)
		return 0;
	return kit_fail(e, EXIT_RUNTIME, 0, "%s: %s is not %d numbers: %s",
			led->name, attr, led->ncolors, buf);
}

static int read_number(const struct led *led, const char *attr, long *value,
		       struct kit_err *e)
{
	char buf[32];

	if (led_read_attr(led, attr, buf, sizeof(buf), e))
		return -1;
	if (!led_parse_value(buf, value))
		return 0;
	return kit_fail(e, EXIT_RUNTIME, 0, "%s: %s is not a number: %s",
			led->name, attr, buf);
}

int led_read(struct led *led, struct kit_err *e)
{
	char buf[512];
	int i, has;

	if (led_read_attr(led, "multi_index", buf, sizeof(buf), e))
		return -1;
	led->ncolors = led_split_colors(buf, led->color);
	if (led->ncolors < 0)
		return kit_fail(e, EXIT_RUNTIME, 0, "%s: multi_index is not 1 "
				"to %d color names", led->name, MAX_COLORS);
	if (led_read_attr(led, "multi_intensity", buf, sizeof(buf), e) ||
	    read_per_color(led, "multi_intensity", buf, led->intensity, e) ||
	    read_number(led, "brightness", &led->brightness, e) ||
	    read_number(led, "max_brightness", &led->max_brightness, e))
		return -1;
	/* Per-channel maxima: 7.2, commit 2682d6308654. */
	has = read_optional_attr(led, "multi_max_intensity", buf, sizeof(buf),
				 e);
	if (has < 0)
		return -1;
	led->has_max_intensity = has;
	if (has && read_per_color(led, "multi_max_intensity", buf,
				  led->max_intensity, e))
		return -1;
	for (i = 0; i < led->ncolors && !has; i++)
		led->max_intensity[i] = led->max_brightness;
	return 0;
}

/* *t is trigger name, with its settings' files in the order they are
 * written, their texts left empty. */
void led_trig_named(struct trig *t, const char *name)
{
	size_t i, j;

	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	for (i = 0; i < sizeof(trig_attrs) / sizeof(trig_attrs[0]); i++)
		for (j = 0; !strcmp(trig_attrs[i][0], name) &&
			    j < TRIG_ATTRS && trig_attrs[i][j + 1]; j++)
			t->attr[j] = trig_attrs[i][j + 1];
}

int led_read_trig(const struct led *led, struct trig *t, const char *want,
		  struct kit_err *e)
{
	char line[LEDTEXT_PATTERN_SIZE], *names[256];
	int i, n, current, has;
	bool offered = !want;

	memset(t, 0, sizeof(*t));
	has = read_optional_attr(led, "trigger", line, sizeof(line), e);
	if (has <= 0)
		return has;
	n = led_text_triggers(line, names, 256, &current);
	for (i = 0; i < n && !offered; i++)
		offered = !strcmp(names[i], want);
	if (!offered)
		return kit_fail(e, EXIT_RUNTIME, 0, "%s has no %s trigger: "
				"load its module (modprobe " TRIG_MODULE "), or "
				"see '%s' in mcled trigger", led->name, want,
				want, want);
	led_trig_named(t, current < 0 ? "none" : names[current]);
	for (i = 0; i < TRIG_ATTRS && t->attr[i]; i++)
		if (led_read_attr(led, t->attr[i], t->text[i],
				  sizeof(t->text[i]), e))
			return -1;
	return 1;
}

bool led_is_multicolor(const char *name)
{
	char path[PATH_MAX];
	struct kit_err e;

	return !attr_path(name, "multi_index", path, &e) &&
	       !access(path, F_OK);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The names in the LED class directory that pattern matches, sorted.  A
 * name that exists is that LED alone, whatever it holds: a backslash or
 * a * in a LED's name is no glob (fnmatch() would find no 'x\y').
 */
char **led_matching_names(const char *pattern, int *count)
{
	DIR *dir = opendir(led_class_dir());
	char **names = NULL;
	struct dirent *entry;
	struct stat st;
	bool exact;
	int n = 0;

	exact = dir && *pattern != '.' && !strchr(pattern, '/') &&
		!fstatat(dirfd(dir), pattern, &st, AT_SYMLINK_NOFOLLOW);
	while (dir && (entry = readdir(dir))) {
		if (*entry->d_name == '.' ||
		    (exact ? strcmp(pattern, entry->d_name) :
			     fnmatch(pattern, entry->d_name, 0)))
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = xstrdup(entry->d_name);
	}
	if (dir)
		closedir(dir);
	if (n > 0)
		qsort(names, n, sizeof(*names), by_name);
	*count = n;
	return names;
}

int led_check_writable(const struct led *led, const char *attr,
		       struct kit_err *e)
{
	char path[PATH_MAX];

	if (attr_path(led->name, attr, path, e))
		return -1;
	if (!access(path, W_OK))
		return 0;
	if (errno == EACCES || errno == EPERM || errno == EROFS)
		return kit_fail(e, EXIT_RUNTIME, 0, "need root or write access "
				"to %s", path);
	return kit_fail(e, EXIT_RUNTIME, errno, "cannot write %s", path);
}

/*
 * One write(): sysfs parses each write by itself.  O_TRUNC is what a
 * shell's > does; sysfs ignores it, a fake tree in a test needs it.
 */

static int write_attr(const struct led *led, const char *attr,
		      const char *text, struct kit_err *e)
{
	size_t len = strlen(text);
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	if (attr_path(led->name, attr, path, e))
		return -1;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return kit_fail(e, EXIT_RUNTIME, errno, "cannot open %s", path);
	n = write(fd, text, len);
	if (n != (ssize_t)len)
		kit_fail(e, EXIT_RUNTIME, 0, "%s refused '%.*s': %s", path,
			 (int)len - 1, text,
			 n < 0 ? strerror(errno) : "short write");
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

/* The trigger, then its settings (an empty one, a pattern there was
 * not, is left out). */
static int write_trig(const struct led *led, const struct trig *t,
		      struct kit_err *e)
{
	char text[LEDTEXT_PATTERN_SIZE + 1];
	int i;

	snprintf(text, sizeof(text), "%s\n", t->name);
	if (write_attr(led, "trigger", text, e))
		return -1;
	for (i = 0; i < TRIG_ATTRS && t->attr[i]; i++) {
		if (!*t->text[i])
			continue;
		snprintf(text, sizeof(text), "%s\n", t->text[i]);
		if (write_attr(led, t->attr[i], text, e))
			return -1;
	}
	return 0;
}

/*
 * The intensities (unless NULL), the trigger (unless NULL), then the
 * brightness (unless negative); *taken counts the writes the LED took.
 */
int led_write_state(const struct led *led, const long *intensity,
		    const struct trig *trig, long brightness, int *taken,
		    struct kit_err *e)
{
	char text[MAX_COLORS * 24];

	*taken = 0;
	if (intensity) {
		led_format_intensities(intensity, led->ncolors, text,
				   sizeof(text));
		if (write_attr(led, "multi_intensity", text, e))
			return -1;
		(*taken)++;
	}
	if (trig) {
		(*taken)++;
		if (write_trig(led, trig, e))
			return -1;
	}
	if (brightness >= 0) {
		snprintf(text, sizeof(text), "%ld\n", brightness);
		if (write_attr(led, "brightness", text, e))
			return -1;
		(*taken)++;
	}
	return 0;
}
