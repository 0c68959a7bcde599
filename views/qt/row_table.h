#ifndef FUSESCOPE_VIEWS_QT_ROW_TABLE_H_
#define FUSESCOPE_VIEWS_QT_ROW_TABLE_H_

// The panels' tables read as lists of rows: one row selected at a time, nothing edited in
// place, one line of text per row at the height of that line, no grid, and columns the user
// can resize with the last one taking the rest. Panels set their models, sorting and column
// widths after.

class QTableView;

namespace fusescope::views {

void SetUpRowTable(QTableView* table);

}  // namespace fusescope::views

#endif  // FUSESCOPE_VIEWS_QT_ROW_TABLE_H_
