// SPDX-License-Identifier: GPL-2.0
/*
 * ledtext: the text of the LED class's files (ledtext.h).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/kit.h"
#include "led/ledtext.h"

int led_text_level(const char *s, long *value, bool *percent)
{
	size_t len = strlen(s);
	char digits[8] = "";
	unsigned long v;

	*percent = len > 1 && s[len - 1] == '%';
	/* Decimal, as brightness_store() (kstrtoul base 10) and the pattern
	 * trigger (%d) read a level: 010 is ten there, 0x10 an error. */
	if (!*percent) {
		if (parse_ulong(s, 10, 0, LONG_MAX, &v))
			return -1;
	} else {
		if (len > sizeof(digits))
			return -1;
		memcpy(digits, s, len - 1);
		if (parse_ulong(digits, 10, 0, 100, &v))
			return -1;
	}
	*value = v;
	return 0;
}

long led_text_level_of(long value, bool percent, long max)
{
	return percent ? (value * max + 50) / 100 : value;
}

int led_text_triggers(char *line, char **names, int max, int *current)
{
	char *word, *save;
	size_t len;
	int n = 0;

	*current = -1;
	for (word = strtok_r(line, " \n", &save); word && n < max;
	     word = strtok_r(NULL, " \n", &save)) {
		len = strlen(word);
		if (len > 2 && word[0] == '[' && word[len - 1] == ']') {
			word[len - 1] = '\0';
			word++;
			*current = n;
		}
		names[n++] = word;
	}
	return n;
}

/* One pair's words into out at *len; 0, or -1 with *e. */
static int pattern_pair(const char *level_word, const char *ms_word, long max,
			char *out, size_t size, size_t *len,
			struct kit_err *e)
{
	unsigned long ms;
	bool percent;
	long level;

	if (led_text_level(level_word, &level, &percent))
		return kit_fail(e, EXIT_USAGE, 0, "bad brightness '%s' in the "
				"pattern: give 0 to max_brightness, or 0%% to "
				"100%%", level_word);
	level = led_text_level_of(level, percent, max);
	if (level > max)
		return kit_fail(e, EXIT_USAGE, 0, "brightness %ld in the "
				"pattern is above max_brightness %ld", level,
				max);
	if (parse_ulong(ms_word, 10, 0, UINT_MAX, &ms))
		return kit_fail(e, EXIT_USAGE, 0, "bad duration '%s' in the "
				"pattern: give milliseconds", ms_word);
	*len += snprintf(out + *len, *len < size ? size - *len : 0,
			 "%s%ld %lu", *len ? " " : "", level, ms);
	if (*len + 1 >= size)
		return kit_fail(e, EXIT_USAGE, 0, "the pattern is longer than "
				"the %d bytes the kernel takes",
				LEDTEXT_PATTERN_SIZE - 1);
	return 0;
}

int led_text_pattern(const char *spec, long max, char *out, size_t size,
		     struct kit_err *e)
{
	char *copy = xstrdup(spec), *word[2], *save = NULL;
	const char *sep = " \t\n";
	size_t len = 0;
	int n = 0, ret = -1;

	for (;;) {
		word[0] = strtok_r(n ? NULL : copy, sep, &save);
		if (!word[0])
			break;
		word[1] = strtok_r(NULL, sep, &save);
		n += word[1] ? 2 : 1;
		if (word[1] && pattern_pair(word[0], word[1], max, out, size,
					    &len, e))
			goto out;
	}
	if (n % 2 || n < 4) {
		kit_fail(e, EXIT_USAGE, 0, "a pattern is 2 or more pairs of "
			 "brightness and milliseconds, got %d number%s",
			 n, n == 1 ? "" : "s");
		goto out;
	}
	strcpy(out + len, "\n");
	ret = 0;
out:
	free(copy);
	return ret;
}
