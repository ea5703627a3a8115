//! What a mosquito copies (§6.7.1 to §6.7.3): the bugs of the top pieces
//! around it, mosquitoes left out; and so whether it has the pillbug's
//! ability (§6.7.5). The mosquito's movement and the pillbug's throws both
//! ask it.

use std::collections::BTreeSet;

use crate::core::{Bug, Hex};
use crate::reference::board::Board;

/// The bugs a mosquito at `from` copies (§6.7.1–§6.7.3): the bugs of the top
/// pieces of the adjacent stacks, except mosquitoes. Empty for a mosquito on
/// top of the hive, which moves only as a beetle (§6.7.4).
pub(crate) fn copied_bugs(board: &Board, from: Hex) -> BTreeSet<Bug> {
    if board.height(from) >= 2 {
        return BTreeSet::new();
    }
    from.neighbours()
        .into_iter()
        // §6.7.3 only the top piece of a stack is copied
        .filter_map(|n| board.top(n))
        .map(|piece| piece.bug)
        // §6.7.2 copying a mosquito gives nothing
        .filter(|&bug| bug != Bug::Mosquito)
        .collect()
}

/// Whether a mosquito at `from` has the pillbug's ability by copying (§6.7.5).
pub(crate) fn mosquito_copies_pillbug(board: &Board, from: Hex) -> bool {
    copied_bugs(board, from).contains(&Bug::Pillbug)
}
