/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mcled set's engine (ledset.c): what a request writes to each LED,
 * checked on every LED before the first write, written, and undone when
 * the kernel refuses a write all the same.
 */
#ifndef LEDSET_H
#define LEDSET_H

#include "core/kit.h"
#include "led/ledclass.h"

enum action { ACT_NONE, ACT_STEADY, ACT_BLINK, ACT_PATTERN, ACT_HEARTBEAT };

/* Each action: mcled's word, the trigger it sets, its arguments. */
struct action_def {
	const char *word, *trigger;
	int nargs;
};
extern const struct action_def led_actions[];

/* One argument of set: COLOR=V, or a value in order (color NULL). */
struct color_value {
	char *color;
	long value;
};

struct request {
	struct color_value *values;
	int nvalues, npositional;
	const char *rgb_arg;		/* #RRGGBB as given, or NULL */
	unsigned char rgb[3];
	bool has_brightness, percent;
	long brightness;
	enum action action;
	unsigned long delay_on, delay_off;
	const char *pattern;		/* as given */
	long repeat;
};

/*
 * req written to the n LEDs: all of them or none.  0, or -1 with e (a
 * usage error for a request a LED cannot take, before any write).
 */
int led_set(struct led *leds, int n, const struct request *req,
	    struct kit_err *e);

/* The action a word names (blink, pattern, ...), or ACT_NONE. */
enum action led_action_of(const char *word);
/*
 * set's words, argv[argc] ("set" first or not: VALUE... [ACTION ARGS]),
 * and -b's and -r's values (or NULL) into *req, zeroed by the caller:
 * 0, or -1 with *e (EXIT_USAGE) saying which word is wrong.
 */
int led_parse_request(struct request *req, const char *bright_arg,
		      const char *repeat_arg, int argc, char **argv,
		      struct kit_err *e);

/*
 * The multicolor LEDs that pattern (NULL: all) names, sorted by name,
 * their state read; *count of them.  An exact name must be a multicolor
 * LED; a glob keeps the multicolor ones.  NULL with *e when none is or
 * one cannot be read.
 */
struct led *led_select(const char *pattern, int *count, struct kit_err *e);
/* get and set want one LED, or a pattern that chose several on purpose:
 * 0, or -1 with *e. */
int led_need_one(const struct led *leds, int n, const char *pattern,
		 struct kit_err *e);

#endif
