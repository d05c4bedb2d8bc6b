/* SPDX-License-Identifier: MIT */
/*
 * Reporters: JSON with the common envelope, TAP 13, aligned text tables,
 * and atomic result files.  They read plain, merged data only.  Each has
 * its header, named after the file that implements it; this one takes
 * them all.
 */
#ifndef INVLAB_REPORT_H
#define INVLAB_REPORT_H

#include <invlab/afile.h>
#include <invlab/envelope.h>
#include <invlab/json.h>
#include <invlab/table.h>
#include <invlab/tap.h>

#endif
