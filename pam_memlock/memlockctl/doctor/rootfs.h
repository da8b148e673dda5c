/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-or-later */
/*
 * doctor reads every file through memlockctl's reader of a root
 * (dirfd/dirfd.h), shared with status, metrics and nagios; these are the
 * names doctor's sources call it by.
 */
#ifndef PML_DOC_ROOTFS_H
#define PML_DOC_ROOTFS_H

#include "dirfd/dirfd.h"

#define DOC_FILE_MAX DIRFD_FILE_MAX
#define DOC_LINKS_MAX DIRFD_LINKS_MAX
#define doc_text dirfd_text
#define doc_root_canonical dirfd_root_canonical
#define doc_open_path dirfd_open_path
#define doc_open_path_walk dirfd_open_path_walk
#define doc_open_dir dirfd_open_dir
#define doc_open_parent dirfd_open_parent
#define doc_read dirfd_read
#define doc_text_free dirfd_text_free
#define doc_exists dirfd_exists
#define doc_list_dir dirfd_list_dir
#define doc_names_free dirfd_names_free

#endif
