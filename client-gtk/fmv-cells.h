/* fmv-cells.h: the cells of the event list's columns. */
#pragma once

#include <gtk/gtk.h>

#include "fmv-sort.h"

G_BEGIN_DECLS

/* Gives each column (indexed by FmvColumn) the factory of its cells. */
void fmv_cells_set_factories (GtkColumnViewColumn *const columns[FMV_N_COLUMNS]);

G_END_DECLS
