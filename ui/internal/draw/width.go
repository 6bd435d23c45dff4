package draw

import "tpsrace/format"

// Width is the cells s takes on screen: format.Width, which the panes and
// format's padding share.
func Width(s string) int { return format.Width(s) }
