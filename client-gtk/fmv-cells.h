/* fmv-cells.h: the cells of the event list's columns. */
#pragma once

#include <gtk/gtk.h>

#include "fmv-sort.h"

G_BEGIN_DECLS

/* Gives each column (indexed by FmvColumn) the factory of its cells. */
void fmv_cells_set_factories (GtkColumnViewColumn *const columns[FMV_N_COLUMNS]);

/* The FmvRow property a column shows ("pid", "user"), also the name of its chooser action. */
const char *fmv_cells_get_name (FmvColumn column);

G_END_DECLS
