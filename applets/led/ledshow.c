// SPDX-License-Identifier: GPL-2.0
/*
 * ledshow: what mcled list and get print of the LEDs read (ledclass.h): the
 * list's line, get's table with what each channel is driven at, and
 * both as JSON.
 */
#include <stdio.h>
#include <string.h>

#include "led/ledclass.h"

static void print_numbers(FILE *out, const long *value, int n)
{
	int i;

	fputc('[', out);
	for (i = 0; i < n; i++)
		fprintf(out, i ? ",%ld" : "%ld", value[i]);
	fputc(']', out);
}

static void driven_values(const struct led *led, bool closest, long *value)
{
	int i;

	for (i = 0; i < led->ncolors; i++)
		value[i] = led_driven_value(led->brightness, led->intensity[i],
					led->max_brightness, closest);
}

/* get's last line: "  trigger timer: delay_on 500 delay_off 500" */
static void print_trig(FILE *out, const struct trig *t)
{
	int i;

	if (!*t->name)
		return;
	fprintf(out, "  trigger %s", t->name);
	for (i = 0; i < TRIG_ATTRS && t->attr[i]; i++)
		fprintf(out, "%s %s %s", i ? "" : ":", t->attr[i],
			t->text[i]);
	fputc('\n', out);
}

/* -j get: ,"trigger":"timer","delay_on":500,... (the pattern a string,
 * and a setting that is not a number, whatever a driver wrote) */
static void print_json_trig(FILE *out, const struct trig *t)
{
	int i;

	if (!*t->name)
		return;
	fputs(",\"trigger\":", out);
	json_string(out, t->name);
	for (i = 0; i < TRIG_ATTRS && t->attr[i]; i++) {
		fprintf(out, ",\"%s\":", t->attr[i]);
		if (!strcmp(t->attr[i], "pattern"))
			json_string(out, t->text[i]);
		else
			json_value(out, t->text[i]);
	}
}

/* list, or get (with the kernel's rounding, closest or not). */
void led_print_json(FILE *out, const struct led *leds, int n, bool get,
		    bool closest)
{
	long value[MAX_COLORS];
	int i, c;

	fputc('[', out);
	for (i = 0; i < n; i++) {
		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", out);
		json_string(out, leds[i].name);
		fputs(",\"colors\":[", out);
		for (c = 0; c < leds[i].ncolors; c++) {
			if (c)
				fputc(',', out);
			json_string(out, leds[i].color[c]);
		}
		fputs("],\"intensity\":", out);
		print_numbers(out, leds[i].intensity, leds[i].ncolors);
		fprintf(out, ",\"brightness\":%ld,\"max_brightness\":%ld",
			leds[i].brightness, leds[i].max_brightness);
		if (leds[i].has_max_intensity) {
			fputs(",\"max_intensity\":", out);
			print_numbers(out, leds[i].max_intensity,
				      leds[i].ncolors);
		}
		if (get) {
			driven_values(&leds[i], closest, value);
			fprintf(out, ",\"rounding\":\"%s\",\"values\":",
				closest ? "closest" : "truncate");
			print_numbers(out, value, leds[i].ncolors);
			print_json_trig(out, leds[i].trig);
		}
		fputc('}', out);
	}
	fputs(n ? "\n]\n" : "]\n", out);
}

void led_print_list(FILE *out, const struct led *led)
{
	int i;

	fprintf(out, "%s:", led->name);
	for (i = 0; i < led->ncolors; i++)
		fprintf(out, " %s=%ld", led->color[i], led->intensity[i]);
	fprintf(out, " brightness=%ld max_brightness=%ld", led->brightness,
		led->max_brightness);
	for (i = 0; i < led->ncolors && led->has_max_intensity; i++)
		fprintf(out, i ? ",%ld" : " max_intensity=%ld",
			led->max_intensity[i]);
	fputc('\n', out);
}

void led_print_get(FILE *out, const struct led *led, bool closest)
{
	long value[MAX_COLORS];
	int i;

	driven_values(led, closest, value);
	fprintf(out, "%s: brightness %ld of %ld, values %s\n", led->name,
		led->brightness, led->max_brightness,
		closest ? "rounded to closest" : "truncated");
	/* A max column where the kernel has per-channel maxima. */
	fprintf(out, "  %-10s %9s", "color", "intensity");
	if (led->has_max_intensity)
		fprintf(out, " %6s", "max");
	fprintf(out, " %6s\n", "value");
	for (i = 0; i < led->ncolors; i++) {
		fprintf(out, "  %-10s %9ld", led->color[i],
			led->intensity[i]);
		if (led->has_max_intensity)
			fprintf(out, " %6ld", led->max_intensity[i]);
		fprintf(out, " %6ld\n", value[i]);
	}
	if (led->trig)
		print_trig(out, led->trig);
}
