/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LED engine's class layer (ledclass.c): multicolor LEDs read and
 * written through sysfs, their triggers, and the kernel's arithmetic;
 * what list and get show of them (ledshow.c).  Functions
 * that can fail return -1 with *e (one line).
 */
#ifndef LEDCLASS_H
#define LEDCLASS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "core/kit.h"
#include "led/ledtext.h"

/* led_colors[] of drivers/leds/led-core.c, in LED_COLOR_ID_* order. */
#define COLOR_NAMES "white red green blue amber violet yellow ir multicolor " \
		    "rgb purple orange pink cyan lime"

/* A LED is named by its name in the class directory, or a glob. */
#define LED_NOT_A_PATH	"give a LED name or glob, not a path"

#define MAX_COLORS	15	/* LED_COLOR_ID_MAX, the kernel's limit */
#define COLOR_LEN	16

/*
 * A trigger and the settings written after it, in that order: ledtrig-
 * timer's delays, ledtrig-pattern's pattern then repeat (which restarts
 * it), ledtrig-heartbeat's invert.
 */
#define TRIG_NAME	64
#define TRIG_ATTRS	2
#define TRIG_MODULE	"ledtrig-%s"	/* a trigger's module */
struct trig {
	char name[TRIG_NAME];
	const char *attr[TRIG_ATTRS];	/* NULL: none */
	char text[TRIG_ATTRS][LEDTEXT_PATTERN_SIZE];
};

struct led {
	const char *name;		/* in KIT_SYSFS/class/leds */
	int ncolors;
	char color[MAX_COLORS][COLOR_LEN];
	long intensity[MAX_COLORS];
	long brightness, max_brightness;
	/* Each channel's maximum: multi_max_intensity, or max_brightness
	 * where the kernel has no such file (before 7.2, commit
	 * 2682d6308654) */
	long max_intensity[MAX_COLORS];
	bool has_max_intensity;
	long new_intensity[MAX_COLORS];	/* what set writes */
	long new_brightness;		/* -1: left alone */
	struct trig *trig, *new_trig;	/* with an action: before, after */
};

/* KIT_SYSFS/class/leds */
const char *led_class_dir(void);
/* The names in the LED class directory that pattern matches, sorted;
 * NULL (and *count 0) when none. */
char **led_matching_names(const char *pattern, int *count);
bool led_is_multicolor(const char *name);
/* The text of the LED's file attr, in buf[size]. */
int led_read_attr(const struct led *led, const char *attr, char *buf,
		  size_t size, struct kit_err *e);
/* The LED's colors, intensities, brightness and maxima. */
int led_read(struct led *led, struct kit_err *e);
/* *t is trigger name, with its settings' files in the order they are
 * written, their texts left empty. */
void led_trig_named(struct trig *t, const char *name);
/*
 * The LED's trigger and its settings into *t: 1; 0 when the LED has no
 * trigger file (a kernel without CONFIG_LEDS_TRIGGERS, a fake tree).
 * want (or NULL): a trigger the LED must offer.
 */
int led_read_trig(const struct led *led, struct trig *t, const char *want,
		  struct kit_err *e);
/* Whether attr can be written: 0, or -1 with *e. */
int led_check_writable(const struct led *led, const char *attr,
		       struct kit_err *e);
/*
 * The intensities (unless NULL), the trigger (unless NULL), then the
 * brightness (unless negative); *taken counts the writes the LED took.
 */
int led_write_state(const struct led *led, const long *intensity,
		    const struct trig *trig, long brightness, int *taken,
		    struct kit_err *e);

/* ledshow.c: list's line, get's table (and the trigger's line, when
 * led->trig is read), and either as JSON (get: with values, trigger). */
void led_print_list(FILE *out, const struct led *led);
void led_print_get(FILE *out, const struct led *led, bool closest);
void led_print_json(FILE *out, const struct led *leds, int n, bool get,
		    bool closest);

/* The text of the files, and the kernel's arithmetic. */
/* Is name one of the words of COLOR_NAMES? */
bool led_known_color(const char *name);
/* multi_index ("green blue red") into color[]; -1 when it does not fit. */
int led_split_colors(char *line, char color[][COLOR_LEN]);
/* multi_intensity ("43 226 138") into value[]; -1 when malformed. */
int led_parse_intensities(const char *line, long *value, int max);
/* "v1 v2 ... vn\n": the kernel refuses a space before the newline. */
void led_format_intensities(const long *value, int n, char *buf, size_t size);
/* An intensity or brightness as the kernel's %i reads it. */
int led_parse_value(const char *s, long *value);
/* "RRGGBB", six hex digits (after the '#'), into rgb[]; -1 otherwise. */
int led_parse_rgb(const char *s, unsigned char rgb[3]);
/* A color component 0..255 as an intensity 0..max, rounded. */
long led_scale_component(unsigned int component, long max);
/* What the kernel drives on one color (led_mc_calc_color_components()). */
unsigned int led_driven_value(unsigned int brightness, unsigned int intensity,
			      unsigned int max, bool closest);
/* Does kernel version v (n numbers of it read) round to closest? */
bool led_version_rounds(const int v[3], int n);
bool led_kernel_rounds(void);

#endif
