/*
 * linesample: the levels of GPIO lines, as a guest of the VM rig sees
 * them on its board (tests/vm/board.dts), for tests/guest/ledboard.sh.
 *
 * Usage: linesample SECONDS LINE...
 *   LINE   a file whose first character is the line's level, 0 or 1
 *          (gpio-sim's sim_gpioN/value), or @NAME: the line whose consumer
 *          is NAME in gpiolib's debugfs view (/sys/kernel/debug/gpio,
 *          "... |NAME ...) out hi"), for a controller without gpio-sim.
 *
 * Reads every line each millisecond for SECONDS (0: once) and prints
 * "USEC LIT L1 L2 ..." at the start and at each change: microseconds since
 * the start, how many lines are high, and each level.  Exits 1 when a
 * line cannot be read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#define MAX_LINES 8
#define DEBUGFS_GPIO "/sys/kernel/debug/gpio"

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static int read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return 0;
}

/*
 * The level of the output line whose consumer is NAME in debugfs's text:
 * 0, 1, or -1.  6.12 writes a line as "gpio-N (LINE|NAME) out hi", 7.3
 * as "gpio-N (NAME) output-high,pull-down".
 */
static int debugfs_level(const char *text, const char *name)
{
	size_t len = strlen(name);
	const char *p = text, *end;

	while ((p = strstr(p, name))) {
		end = p + len;
		if ((p == text || (p[-1] != '|' && p[-1] != '(')) ||
		    (*end != ' ' && *end != ')')) {
			p = end;
			continue;
		}
		end = strchr(end, ')');
		if (!end)
			return -1;
		end += strspn(end + 1, " ") + 1;
		if (!strncmp(end, "out hi", 6) || !strncmp(end, "output-high", 11))
			return 1;
		if (!strncmp(end, "out lo", 6) || !strncmp(end, "output-low", 10))
			return 0;
		return -1;
	}
	return -1;
}

static int sample(int n, char **lines, int *level)
{
	static char text[65536];
	char value[16];
	int i, have_debugfs = 0;

	for (i = 0; i < n; i++) {
		if (lines[i][0] == '@') {
			if (!have_debugfs &&
			    read_file(DEBUGFS_GPIO, text, sizeof(text)))
				text[0] = '\0';
			have_debugfs = 1;
			level[i] = debugfs_level(text, lines[i] + 1);
		} else {
			level[i] = read_file(lines[i], value, sizeof(value)) ?
				   -1 : value[0] == '1';
		}
		if (level[i] < 0) {
			fprintf(stderr, "linesample: cannot read line %s\n",
				lines[i]);
			return -1;
		}
	}
	return 0;
}

static void print(long long t, int n, const int *level)
{
	int i, lit = 0;

	for (i = 0; i < n; i++)
		lit += level[i];
	printf("%lld %d", t, lit);
	for (i = 0; i < n; i++)
		printf(" %d", level[i]);
	putchar('\n');
}

int main(int argc, char **argv)
{
	int level[MAX_LINES], last[MAX_LINES], n = argc - 2;
	struct timespec ms = { 0, 1000000 };
	long long start, until;

	if (n < 1 || n > MAX_LINES) {
		fprintf(stderr, "usage: linesample SECONDS LINE... (1 to %d)\n",
			MAX_LINES);
		return 2;
	}
	start = now_us();
	until = start + atof(argv[1]) * 1000000;
	if (sample(n, argv + 2, last))
		return 1;
	print(0, n, last);
	while (now_us() < until) {
		nanosleep(&ms, NULL);
		if (sample(n, argv + 2, level))
			return 1;
		if (memcmp(level, last, n * sizeof(*level))) {
			print(now_us() - start, n, level);
			memcpy(last, level, sizeof(last));
		}
	}
	return 0;
}
