/* SPDX-License-Identifier: GPL-2.0 */
/*
 * On-disk facts more than one engine reads: byte order, and the ext2
 * superblock that both the RAM-disk identification (the kernel's
 * identify_ramdisk_image()) and root=UUID= (rootdev) look at.
 */
#ifndef KIT_DISK_H
#define KIT_DISK_H

#include <stdbool.h>
#include <stdint.h>

static inline uint16_t get_le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static inline uint32_t get_le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint32_t get_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

/* ext2/3/4: the superblock 1 KiB into the filesystem, s_magic in it. */
#define EXT2_SB_OFFSET		1024
#define EXT2_MAGIC_OFFSET	0x38
#define EXT2_MAGIC		0xef53

/* sb: the superblock, EXT2_SB_OFFSET bytes into the filesystem. */
static inline bool ext2_magic(const unsigned char *sb)
{
	return get_le16(sb + EXT2_MAGIC_OFFSET) == EXT2_MAGIC;
}

#endif
