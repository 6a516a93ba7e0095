// SPDX-License-Identifier: GPL-2.0
/* mcled set's engine (ledset.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "led/ledset.h"

#define CHOICES_SHOWN	4	/* names in the "choose one" message */

const struct action_def led_actions[] = {
	[ACT_STEADY] = { "steady", "none", 0 },
	[ACT_BLINK] = { "blink", "timer", 2 },
	[ACT_PATTERN] = { "pattern", "pattern", 1 },
	[ACT_HEARTBEAT] = { "heartbeat", "heartbeat", 0 },
};

/* Adds name, the i-th of n, to the list of choices a message shows. */
static void add_choice(char *list, int i, int n, const char *name)
{
	if (i >= CHOICES_SHOWN)
		return;
	strcat(list, i ? ", " : "");
	strcat(list, name);
	if (i == CHOICES_SHOWN - 1 && n > CHOICES_SHOWN)
		strcat(list, ", ...");
}

/*
 * A monochrome LED asked for by name: which LEDs are multicolor, since a
 * board's red, green and blue LEDs are monochrome when a driver groups
 * them into one (leds-group-multicolor, which also disables their sysfs).
 */
static void refuse_monochrome(const char *name, struct kit_err *e)
{
	char list[CHOICES_SHOWN * (NAME_MAX + 2) + 8] = "";
	int i, n, multicolor = 0;
	char **names = led_matching_names("*", &n);

	/* the multicolor names first, each LED asked once */
	for (i = 0; i < n; i++) {
		if (led_is_multicolor(names[i]))
			names[multicolor++] = names[i];
		else
			free(names[i]);
	}
	for (i = 0; i < multicolor; i++) {
		add_choice(list, i, multicolor, names[i]);
		free(names[i]);
	}
	free(names);
	kit_fail(e, EXIT_RUNTIME, 0, "%s is not a multicolor LED (no "
		 "multi_index)%s%s", name, *list ? "; multicolor: " : "", list);
}

struct led *led_select(const char *pattern, int *count, struct kit_err *e)
{
	bool exact = pattern && !strpbrk(pattern, "*?[");
	int i, n = 0, nnames;
	char **names = led_matching_names(pattern ? pattern : "*", &nnames);
	struct led *leds;

	if (!nnames && pattern) {
		kit_fail(e, EXIT_RUNTIME, 0, "no LED %s '%s' in %s",
			 exact ? "named" : "matches", pattern, led_class_dir());
		return NULL;
	}
	leds = xcalloc(nnames + 1, sizeof(*leds));
	for (i = 0; i < nnames; i++) {
		if (!led_is_multicolor(names[i])) {
			if (!exact)
				continue;
			refuse_monochrome(pattern, e);
			return NULL;
		}
		leds[n].name = names[i];
		if (led_read(&leds[n++], e))
			return NULL;
	}
	if (!n && pattern) {
		kit_fail(e, EXIT_RUNTIME, 0, "no multicolor LED matches '%s' in "
			 "%s", pattern, led_class_dir());
		return NULL;
	}
	*count = n;
	return leds;
}

int led_need_one(const struct led *leds, int n, const char *pattern,
		 struct kit_err *e)
{
	char names[CHOICES_SHOWN * (NAME_MAX + 2) + 8] = "";
	int i;

	if (pattern || n == 1)
		return 0;
	if (!n)
		return kit_fail(e, EXIT_RUNTIME, 0, "no multicolor LED in %s",
				led_class_dir());
	for (i = 0; i < n; i++)
		add_choice(names, i, n, leds[i].name);
	return kit_fail(e, EXIT_USAGE, 0, "%d multicolor LEDs; choose one with "
			"-l NAME (%s)", n, names);
}

/* "green blue red", for messages; the text lasts until the next call. */
static const char *color_list(const struct led *led)
{
	static char list[MAX_COLORS * COLOR_LEN];
	int i;

	*list = '\0';
	for (i = 0; i < led->ncolors; i++) {
		strcat(list, i ? " " : "");
		strcat(list, led->color[i]);
	}
	return list;
}

/*
 * Channel i gets value, or set refuses: before 7.2 the kernel stores a
 * value above max_brightness unchecked, from 7.2 (commit 2682d6308654)
 * it clamps one above the channel's maximum in silence
 * (multi_intensity_store()).
 */
static int set_channel(struct led *led, int i, long value,
		       struct kit_err *e)
{
	if (value > led->max_intensity[i] && led->has_max_intensity)
		return kit_fail(e, EXIT_USAGE, 0, "%s: %s=%ld is above its "
				"maximum %ld (multi_max_intensity)", led->name,
				led->color[i], value, led->max_intensity[i]);
	if (value > led->max_intensity[i])
		return kit_fail(e, EXIT_USAGE, 0, "%s: %s=%ld is above "
				"max_brightness %ld", led->name,
				led->color[i], value, led->max_brightness);
	led->new_intensity[i] = value;
	return 0;
}

/*
 * Every channel of that color gets component scaled to its maximum
 * (component NULL: value itself); 0 when the LED has none, else 1.
 */
static int set_color(struct led *led, const char *color, long value,
		     const unsigned char *component, struct kit_err *e)
{
	int i, found = 0;

	for (i = 0; i < led->ncolors; i++) {
		if (strcmp(led->color[i], color))
			continue;
		if (set_channel(led, i, component ?
				led_scale_component(*component,
						led->max_intensity[i]) :
				value, e))
			return -1;
		found = 1;
	}
	return found;
}

static int plan_rgb(struct led *led, const struct request *req,
		    struct kit_err *e)
{
	static const char *const rgb_names[3] = { "red", "green", "blue" };
	int i, found;

	memset(led->new_intensity, 0, sizeof(led->new_intensity));
	for (i = 0; i < 3; i++) {
		found = set_color(led, rgb_names[i], 0, &req->rgb[i], e);
		if (found < 0)
			return -1;
		if (!found && req->rgb[i])
			return kit_fail(e, EXIT_USAGE, 0, "%s has no %s for "
					"%s; its colors: %s", led->name,
					rgb_names[i], req->rgb_arg,
					color_list(led));
	}
	return 0;
}

/*
 * Colors set alone on a LED that is off with no trigger light it at
 * max_brightness: the intensities only weigh the brightness
 * (led_mc_calc_color_components()), and a board's LED comes up off
 * (gpio-leds' default-state, leds-group-multicolor's brightness 0).
 */
static int plan_light(struct led *led, struct kit_err *e)
{
	struct trig now;
	int has;

	if (led->brightness)
		return 0;
	has = led_read_trig(led, &now, NULL, e);
	if (has < 0)
		return -1;
	if (!has || !strcmp(now.name, "none"))
		led->new_brightness = led->max_brightness;
	return 0;
}

/* What set writes to this LED; refused before any write. */
static int plan_led(struct led *led, const struct request *req,
		    struct kit_err *e)
{
	const struct color_value *cv;
	int i, found;

	if (req->npositional && req->npositional != led->ncolors)
		return kit_fail(e, EXIT_USAGE, 0, "%s: multi_intensity takes "
				"%d values (%s), got %d", led->name,
				led->ncolors, color_list(led),
				req->npositional);
	memcpy(led->new_intensity, led->intensity, sizeof(led->intensity));
	if (req->rgb_arg && plan_rgb(led, req, e))
		return -1;
	for (i = 0; i < req->nvalues; i++) {
		cv = &req->values[i];
		if (!cv->color) {
			if (set_channel(led, i, cv->value, e))
				return -1;
			continue;
		}
		found = set_color(led, cv->color, cv->value, NULL, e);
		if (found < 0)
			return -1;
		if (!found)
			return kit_fail(e, EXIT_USAGE, 0, "%s has no %s; its "
					"colors: %s", led->name, cv->color,
					color_list(led));
	}
	led->new_brightness = -1;
	if (!req->has_brightness)
		return req->action ? 0 : plan_light(led, e);
	led->new_brightness = led_text_level_of(req->brightness, req->percent,
					       led->max_brightness);
	if (led->new_brightness > led->max_brightness)
		return kit_fail(e, EXIT_USAGE, 0, "%s: brightness %ld is above "
				"max_brightness %ld", led->name,
				led->new_brightness, led->max_brightness);
	return 0;
}

/*
 * What the action writes: its trigger and settings, and the brightness
 * after them.  Removing a trigger turns the LED off (led_trigger_set()),
 * and a brightness written under software blink becomes the blink's
 * (led_set_brightness(): LED_BLINK_BRIGHTNESS_CHANGE); the blink's, the
 * heartbeat's and steady's brightness is -b, else the LED's own when it is
 * steady and lit, else max_brightness (steady from steady: left alone).
 */
static int plan_action(struct led *led, const struct request *req,
		       struct kit_err *e)
{
	const char *trigger = led_actions[req->action].trigger;
	struct trig *t = led->new_trig;
	struct kit_err bad;
	bool lit;
	int has = led_read_trig(led, led->trig, trigger, e);

	if (has < 0)
		return -1;
	if (!has)
		return kit_fail(e, EXIT_RUNTIME, 0, "%s has no trigger file: "
				"this kernel has no LED triggers "
				"(CONFIG_LEDS_TRIGGERS)", led->name);
	lit = !strcmp(led->trig->name, "none") && led->brightness;
	led_trig_named(t, trigger);
	if (req->action == ACT_BLINK) {
		snprintf(t->text[0], sizeof(t->text[0]), "%lu", req->delay_on);
		snprintf(t->text[1], sizeof(t->text[1]), "%lu", req->delay_off);
	} else if (req->action == ACT_PATTERN) {
		if (led_text_pattern(req->pattern, led->max_brightness,
				    t->text[0], sizeof(t->text[0]), &bad))
			return kit_fail(e, EXIT_USAGE, 0, "%s: %s",
					led->name, bad.msg);
		t->text[0][strlen(t->text[0]) - 1] = '\0';
		snprintf(t->text[1], sizeof(t->text[1]), "%ld", req->repeat);
	} else if (req->action == ACT_HEARTBEAT) {
		strcpy(t->text[0], "0");
	}
	if (req->action == ACT_PATTERN || led->new_brightness >= 0)
		return 0;
	if (req->action == ACT_STEADY)
		led->new_brightness = strcmp(led->trig->name, "none") ?
				      led->max_brightness : -1;
	else
		led->new_brightness = lit ? led->brightness :
				      led->max_brightness;
	return 0;
}

/*
 * The kernel refused a write to leds[failed] after taking `taken` of its
 * writes (a LED whose sysfs a flash driver holds refuses brightness):
 * the LEDs before it, and what it took, get their old state back, so
 * that a set changes all of its LEDs or none.  Returns -1, *e (the
 * refusal) then saying why and whether the LEDs are as before.
 */
static int put_back(const struct led *leds, int failed, int taken,
		    bool intensities, struct kit_err *e)
{
	char why[sizeof(e->msg)];
	struct kit_err again;
	long brightness;
	int i, n;

	snprintf(why, sizeof(why), "%s", e->msg);
	for (i = 0; i <= failed; i++) {
		const struct trig *trig = leds[i].trig;

		/* A restored trigger drives the brightness again. */
		brightness = leds[i].new_brightness >= 0 &&
			     (!trig || !strcmp(trig->name, "none")) ?
			     leds[i].brightness : -1;
		if (i == failed && !taken)
			break;
		if (i == failed && !trig)	/* it took the intensities only */
			brightness = -1;
		if (led_write_state(&leds[i], intensities ? leds[i].intensity :
				NULL, trig, brightness, &n, &again))
			return kit_fail(e, EXIT_RUNTIME, 0, "%s; putting %s back "
					"failed too: %s", why, leds[i].name,
					again.msg);
	}
	if (failed || taken)
		return kit_fail(e, EXIT_RUNTIME, 0, "%s; the LEDs are as they "
				"were before", why);
	return -1;
}

int led_set(struct led *leds, int n, const struct request *req,
	    struct kit_err *e)
{
	bool intensities = req->nvalues || req->rgb_arg;
	int i, taken;

	for (i = 0; i < n; i++) {
		if (plan_led(&leds[i], req, e))
			return -1;
		if (!req->action)
			continue;
		leds[i].trig = xcalloc(2, sizeof(struct trig));
		leds[i].new_trig = leds[i].trig + 1;
		if (plan_action(&leds[i], req, e))
			return -1;
	}
	for (i = 0; i < n; i++)
		if ((intensities &&
		     led_check_writable(&leds[i], "multi_intensity", e)) ||
		    (req->action && led_check_writable(&leds[i], "trigger", e)) ||
		    (leds[i].new_brightness >= 0 &&
		     led_check_writable(&leds[i], "brightness", e)))
			return -1;
	for (i = 0; i < n; i++)
		if (led_write_state(&leds[i], intensities ?
				leds[i].new_intensity : NULL,
				leds[i].new_trig, leds[i].new_brightness,
				&taken, e))
			return put_back(leds, i, taken, intensities, e);
	return 0;
}
