/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ledtext: the text of the LED class's files as the kernel reads and
 * writes them (Documentation/ABI/testing/sysfs-class-led and
 * sysfs-class-led-trigger-*): brightness levels, the trigger list, the
 * pattern trigger's pattern.  No I/O here.
 */
#ifndef LEDTEXT_H
#define LEDTEXT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/kit.h"

/* A sysfs write is at most a page, the pattern's text included: fewer
 * pairs than ledtrig-pattern.c's MAX_PATTERNS (1024) fit. */
#define LEDTEXT_PATTERN_SIZE	4096

/*
 * A brightness as mcled takes it: a decimal value, as sysfs and the
 * pattern trigger read one, or N%, a decimal percentage of max_brightness
 * (*percent set).  0, or -1 when malformed.
 */
int led_text_level(const char *s, long *value, bool *percent);
/* That level on a LED of max_brightness max: N% rounded to closest. */
long led_text_level_of(long value, bool percent, long max);
/* The largest max it takes: 100% of it, rounded, still fits a long. */
#define LEDTEXT_MAX_LEVEL	((LONG_MAX - 50) / 100)

/*
 * trigger's line ("none timer [heartbeat] pattern"), split in place into
 * at most max names; *current is the bracketed one's index, -1 if none.
 * Returns the count.
 */
int led_text_triggers(char *line, char **names, int max, int *current);

/*
 * A pattern as mcled takes it, "B MS B MS ...", each B a level as above,
 * into the pattern file's text ("B MS ... B MS\n") in out[size], for a LED
 * of max_brightness max.  Refuses (-1, the reason in *e) what
 * the kernel would take as "no pattern": an odd count, fewer than 2
 * pairs, a brightness above max, more than a page
 * (pattern_trig_store_patterns(), pattern_trig_start_pattern()).
 */
int led_text_pattern(const char *spec, long max, char *out, size_t size,
		     struct kit_err *e);

#endif
