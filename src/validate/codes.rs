//! The stable diagnostic codes and what `reversi explain CODE` says about each.

/// A code the validator reports. Readers add `syntax-…` and format-specific codes.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Code {
    /// A move the rules do not allow.
    IllegalMove,
    /// A pass while a legal move exists, or where nobody passes.
    IllegalPass,
    /// A record that writes passes leaves one out.
    MissingPass,
    /// A move's colour is not the side to move.
    WrongColor,
    /// Moves after the game is over.
    MovesAfterEnd,
    /// A flip claim that does not match the real flips.
    WrongFlips,
    /// A board snapshot that does not match the real position.
    WrongPosition,
    /// A claimed result that does not match the final board.
    WrongResult,
    /// The record stops before the game is over.
    Unfinished,
    /// The start position or setup is impossible under the rules.
    BadSetup,
}

/// Every validator code with its explanation.
pub const CODES: &[(Code, &str, &str)] = &[
    (Code::IllegalMove, "illegal-move", "A move the rules do not allow: the square is occupied, off the board or blocked; the move flips nothing; with 3-4 players a flipping move was available, or a placement without flips does not touch any disc; during a free opening the disc is not on an empty centre square; in classic reversi the player has no discs left.\n\nThe diagnostic names the reason, lists the legal moves, draws the board before the move, and suggests a single change (two moves swapped, another square, a move deleted or inserted: the repair search with one edit) when one would make the whole game legal and give the claimed result, or says that it makes the moves legal but not the result. The rest of the game cannot be replayed after an illegal move: a second label marks where replay stops and says how many moves it skips."),
    (Code::IllegalPass, "illegal-pass", "A pass while the player has a legal move, or a pass where nobody passes (3-4 player games, the free opening). The legal moves are listed, with a square that would make the whole game legal in place of the pass, when one does."),
    (Code::MissingPass, "missing-pass", "The record writes passes explicitly (it holds at least one), but leaves one out here: the player to move had no legal move. The replay infers the pass and goes on. Records that never write passes (WTHOR, move strings, thor PGN exports) have their passes inferred without a word."),
    (Code::WrongColor, "wrong-color", "The record says which colour made a move (GGF `B[..]`/`W[..]`), and it is not the side to move. A pass is usually missing or extra just before."),
    (Code::MovesAfterEnd, "moves-after-end", "The game is over (nobody can move), but the record goes on. An earlier mistake can end a game early."),
    (Code::WrongFlips, "wrong-flips", "The record claims which discs a move flipped (squares or a count), and the claim names squares the move does not flip, or leaves out squares it does. The real flips are listed."),
    (Code::WrongPosition, "wrong-position", "The record gives a board snapshot after a move, and the real position differs: the differing squares are named and the real board is drawn."),
    (Code::WrongResult, "wrong-result", "The record's result does not match the final board under the record's scoring. WOF scoring (the default with two players) gives the empty squares to the winner (to the loser in anti) and splits them on a draw; `scoring=raw` counts discs as they stand; 3-4 player games never award empties. When the claim is the raw count of a WOF game, the help says so. A margin (Black's score minus White's, whoever wins, anti included) only means something with two players: on a 3-4 player game it is an error. A result of `*` (unfinished) on a game that is over is a warning naming the real result."),
    (Code::Unfinished, "unfinished", "The record ends before the game is over. This is legal (resignations, time losses, truncated records) and is a warning, or a note when the record itself says how the game ended; the claimed result cannot be checked against the board, which the message says."),
    (Code::BadSetup, "bad-setup", "The start position is impossible under the rules: a disc on a blocked or off-board square, two discs on one square, discs or the move for a colour that does not take part, a neutral disc outside a 3-player game."),
];

impl Code {
    /// The stable kebab-case name.
    pub fn name(self) -> &'static str {
        CODES
            .iter()
            .find(|(c, _, _)| *c == self)
            .map_or("unknown", |(_, n, _)| n)
    }
}

const FAMILIES: &[(&str, &str)] = &[
    ("syntax-", "A text record could not be read: the label points at the offending text and the help says what was expected. The reader skips to the next game, so one broken game never hides the others; the broken game itself is not replayed."),
    ("json-", "A JSON record does not follow the schema in spec/json.md (wrong version, unknown field, bad value)."),
    ("wthor-", "A WTHOR database file is damaged: a header that disagrees with the file size, a truncated record, a byte that is no square, a name index missing from WTHOR.JOU/WTHOR.TRN. Spans point into a text view of the binary record, which names its byte offset."),
    ("ggf-", "A GGF game uses something the toolkit cannot represent or does not understand (an unknown game type flag, a board size the engine does not play)."),
    ("sgf-", "An SGF game uses something the toolkit cannot represent (a board size, variations)."),
    ("csv-", "A CSV file of move strings is damaged: an unterminated quote, a row with fewer fields than the header, no column that holds moves."),
    ("board-", "A board string (an Edax start prefix in a move-string file, an OBF line) is damaged: too short, a character that is no square, no side to move."),
    ("movestr-", "A move-string file's `%% rules:` pragma cannot be read; the lines after it keep the rules they had."),
    ("obf-", "An OBF line's move/score entry cannot be read."),
    ("transcript-", "A transcript grid is damaged: a number missing, doubled, out of range, or a grid of the wrong shape. Every problem is reported with a label on each number involved."),
];

/// The explanation of `code` (a validator code, or a reader code by its family prefix).
pub fn explain(code: &str) -> Option<&'static str> {
    let code = code.trim().to_ascii_lowercase();
    CODES
        .iter()
        .find(|(_, n, _)| *n == code)
        .map(|(_, _, text)| *text)
        .or_else(|| {
            FAMILIES
                .iter()
                .find(|(prefix, _)| code.starts_with(prefix))
                .map(|(_, text)| *text)
        })
}
