//! Every stable diagnostic code, validator and reader codes alike, with what
//! `reversi explain CODE` says about each.
//!
//! A [`Diagnostic`](crate::diagnostic::Diagnostic) carries its code as a [`Code`]; JSON
//! output and rendered text show it by its kebab-case [`Code::name`].
//!
//! ```
//! use reversi_formats::codes::Code;
//! assert_eq!(Code::GgfBadMove.name(), "ggf-bad-move");
//! assert_eq!(Code::from_name("ILLEGAL-MOVE"), Some(Code::IllegalMove));
//! assert!(Code::SyntaxNulByte.explanation().contains("NUL"));
//! ```

macro_rules! codes {
    ($($variant:ident = $name:literal, $text:literal;)*) => {
        /// A stable diagnostic code. Each variant's documentation is its explanation.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub enum Code {
            $(
                #[doc = $text]
                $variant,
            )*
        }

        /// How many codes there are ([`CODES`]'s length): a code's [`Code::index`] is below it.
        pub const CODE_COUNT: usize = [$(Code::$variant,)*].len();

        /// Every code with its kebab-case name and its explanation, in a fixed order:
        /// validator codes first, then repair outcomes, then the checks across games, then reader codes by
        /// format.
        pub const CODES: &[(Code, &str, &str)] = &[$((Code::$variant, $name, $text),)*];

        impl Code {
            /// The stable kebab-case name, such as `illegal-move`.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Code::$variant => $name,)*
                }
            }

            /// Its place in [`CODES`] (below [`CODE_COUNT`]).
            pub const fn index(self) -> usize {
                self as usize
            }

            /// What the code means, why it happens and how to fix it.
            pub const fn explanation(self) -> &'static str {
                match self {
                    $(Code::$variant => $text,)*
                }
            }
        }
    };
}

codes! {
    IllegalMove = "illegal-move",
        "A move the rules do not allow: the square is occupied, off the board or blocked; the move flips nothing; with 3-4 players a flipping move was available, or a placement without flips does not touch any disc; during a free opening the disc is not on an empty centre square; in classic reversi the player has no discs left.\n\nThe diagnostic names the reason, lists the legal moves, draws the board before the move, and suggests a single change (two moves swapped, another square, a move deleted or inserted: the repair search with one edit) when one would make the whole game legal and give the claimed result, or says that it makes the moves legal but not the result. The rest of the game cannot be replayed after an illegal move: a second label marks where replay stops and says how many moves it skips.";
    IllegalPass = "illegal-pass",
        "A pass while the player has a legal move, or a pass where nobody passes (3-4 player games, the free opening). The legal moves are listed, with a square that would make the whole game legal in place of the pass, when one does.";
    MissingPass = "missing-pass",
        "The record writes passes explicitly (it holds at least one), but leaves one out here: the player to move had no legal move. The replay infers the pass and goes on. Records that never write passes (WTHOR, move strings, thor PGN exports) have their passes inferred without a word.";
    WrongColor = "wrong-color",
        "The record says which colour made a move (GGF `B[..]`/`W[..]`), and it is not the side to move. A pass is usually missing or extra just before.";
    MovesAfterEnd = "moves-after-end",
        "The game is over (nobody can move), but the record goes on. An earlier mistake can end a game early.";
    WrongFlips = "wrong-flips",
        "The record claims which discs a move flipped (squares or a count), and the claim names squares the move does not flip, or leaves out squares it does. The real flips are listed.";
    WrongPosition = "wrong-position",
        "The record gives a board snapshot after a move, and the real position differs: the differing squares are named and the real board is drawn.";
    WrongResult = "wrong-result",
        "The record's result does not match the final board under the record's scoring. WOF scoring (the default with two players) gives the empty squares to the winner (to the loser in anti) and splits them on a draw; `scoring=raw` counts discs as they stand; 3-4 player games never award empties. When the claim is the raw count of a WOF game, the help says so. A margin (Black's score minus White's, whoever wins, anti included) only means something with two players: on a 3-4 player game it is an error. A result of `*` (unfinished) on a game that is over is a warning naming the real result.\n\n`reversi repair` reports a wrong result with this code when the moves are legal (as written, or after the move edits it lists) and only the result disagrees, naming the slip: a reversed score, counts in another colour order, a digit typo, the raw disc count. It never edits legal moves to fit a result; the game is written unchanged unless `--fix-result` writes the board's result, with a `Repair` tag.";
    Unfinished = "unfinished",
        "The record ends before the game is over. This is legal (resignations, time losses, truncated records) and is a warning, or a note when the record itself says how the game ended; the claimed result cannot be checked against the board, which the message says.";
    BadSetup = "bad-setup",
        "The start position is impossible under the rules: a disc on a blocked or off-board square, two discs on one square, discs or the move for a colour that does not take part, a neutral disc outside a 3-player game; in classic reversi, discs in hand beyond the 32 a player has, or hands and placed discs coming to more than the game's 64.";
    Repaired = "repaired",
        "`reversi repair` found the fewest edits (a move swapped, replaced, deleted or inserted) that make the game legal and give its claimed result, and wrote the repaired game. Each edit is labelled; check them against the source if you have it. With `--fix-result` one edit can be the result (the board's written in place of a wrong one); with `--pick GAME:N` the repair is an alternative of an ambiguous game taken by hand, and says so.";
    Ambiguous = "ambiguous",
        "`reversi repair` found several repairs with the same number of edits that fit equally well, so it cannot choose and writes the game unchanged. The alternatives are listed by number: take one with `--pick GAME:N`, or fix the game by hand.";
    Unrepairable = "unrepairable",
        "`reversi repair` found no repair within its edit limit (`--max-edits`) that makes the game legal (and gives the claimed result), or the game cannot be searched. The game is written unchanged and its findings follow; raise the limit or fix it by hand. A search that stopped at its work limit says so, and how many edits it searched in full: `--work-limit` raises that limit.";
    DuplicateGame = "duplicate-game",
        "Two games of the run have the same moves, as written or under a symmetry of the board that keeps the start position (a sheet read from the other side of the board), whatever names, rounds or files they carry: a game entered twice, a game re-entered in another round, a phone entry beside a typed sheet. Both games are named; keep one. Short games can really be played twice (the message says how many moves they have).";
    PlayerTwiceInRound = "player-twice-in-round",
        "A player has two games in one round of one event (names compared ignoring case and spacing). Usually one game's round or a name is mistyped. Both games are named. Games of one event are those with the same `Event` tag and rules (a 10x10 side event under the main event's name is its own event); when only one event is named, games without an `Event` tag belong to it.";
    RepeatedPairing = "repeated-pairing",
        "The same two players meet twice in one event. A Swiss event pairs them once, so a round or a name is probably mistyped; in a double round robin it is expected (use `--allow repeated-pairing`). Both games are named.";
    UnknownPlayer = "unknown-player",
        "A player register is given (`--players FILE`) and a player's name in a game of the run is not in it: neither a registered name nor one of its aliases or logins (compared ignoring case, accents, punctuation and spacing). The finding names the first game with the name and how many games have it, and proposes the nearest registered names (the same words in another order, initials for a first name, a letter or two off). Correct the sheet, or add the spelling to the player's aliases.";
    SimilarNames = "similar-names",
        "Without a player register, two names of one event look like one player spelled two ways: the same words in another order (`Dupont Jean`), an initial for a first name (`Dupont J.`), accents (`Muller`, `Müller`), or a letter or two off. The standings would rank them as two players. Write one spelling on every sheet, or keep a register (`--players FILE`) with the other as an alias.";
    MissingGame = "missing-game",
        "`--pairings` lists a pairing (round, board, black, white) for which no game of the run has that round and those two players. A sheet is missing, or its tags are mistyped.";
    UnpairedGame = "unpaired-game",
        "A game of the run matches no pairing of `--pairings`: no pairing of its round has its two players (or it has no `Round` tag). Its round or a name is probably mistyped, or the pairings file is incomplete.";
    SwappedColours = "swapped-colours",
        "A game's players match a pairing of `--pairings`, but with the colours the other way round: the pairing's black played White. The sheet's names may be swapped, or the players sat the wrong way; the result per colour is affected.";
    SyntaxTooLong = "syntax-too-long",
        "A line or a game is longer than 1 MiB, more than a reader holds in memory; the game is skipped and reading goes on with the next one. Split the file, or check that it is really a text record and not a binary file read with the wrong format.";
    SyntaxTooManyErrors = "syntax-too-many-errors",
        "A game gave more errors than are reported one by one; the rest are counted in this one diagnostic. Fix the first errors: later ones often follow from them.";
    SyntaxNulByte = "syntax-nul-byte",
        "A line holds a NUL byte, which no text record contains; it is read as U+FFFD and the game is reported broken. The file is probably binary or damaged: check the format (`--from`) or the transfer.";
    SyntaxBadEncoding = "syntax-bad-encoding",
        "A line is not valid UTF-8 and was read as Windows-1252 instead (a warning). Names with accents may come out wrong; convert the file to UTF-8 to be sure.";
    SyntaxBadMove = "syntax-bad-move",
        "A word where a move was expected is no move: not a square, a square off the board, or text after an Edax start where `;` should be. Write moves as squares (`f5`, `J10`) and passes as `--` (or `PA`).";
    SyntaxBadResult = "syntax-bad-result",
        "A result (in the Result tag or after the moves) cannot be read. Write disc counts in turn order (`41-23`, `20-22-22`), `*` when unfinished, or `1-0`, `0-1`, `1/2-1/2`.";
    SyntaxDuplicateResult = "syntax-duplicate-result",
        "The movetext gives a second result after the first one. Keep one result after the moves.";
    SyntaxResultMismatch = "syntax-result-mismatch",
        "The result written after the movetext differs from the Result tag. Make the two agree, or drop one.";
    SyntaxMoveAfterResult = "syntax-move-after-result",
        "A move follows the result in the movetext: a result ends a game. Move the result to the end, or start a new game with its own tags.";
    SyntaxBadTermination = "syntax-bad-termination",
        "The Termination tag holds a value the reader does not know. Use `normal`, `resigned` (or `black resigns`), `time forfeit` (or `white loses on time`), `agreement` or `unfinished`.";
    SyntaxBadRules = "syntax-bad-rules",
        "The Rules tag holds a rules string that cannot be read (an unknown variant, board or option). spec/rules.md gives the syntax, such as `anti:10x10`.";
    SyntaxBadStart = "syntax-bad-start",
        "The start position tag (SetUp/FEN or Start) cannot be read under the game's rules. Check the board size, the square characters and the side to move.";
    SyntaxBadTag = "syntax-bad-tag",
        "A tag pair is malformed: no name, or a value that is not a quoted string. A tag reads `[Name \"value\"]`.";
    SyntaxUnterminatedTag = "syntax-unterminated-tag",
        "A tag's quoted value is never closed on its line. Close the value with `\"` and the tag with `]`.";
    SyntaxDuplicateTag = "syntax-duplicate-tag",
        "The same tag is given twice in one game (tag names are compared without case). Keep one.";
    SyntaxUnterminatedComment = "syntax-unterminated-comment",
        "A `{` comment is never closed, so the rest of the game would be comment. Close it with `}`.";
    SyntaxUnterminatedBoard = "syntax-unterminated-board",
        "A `<` board diagram in the movetext is never closed. Close it with `>`.";
    SyntaxBadBoard = "syntax-bad-board",
        "A `<...>` board diagram in the movetext cannot be read: wrong number of squares, a character that is no square, or a bad side to move.";
    SyntaxBadFlipClaim = "syntax-bad-flip-claim",
        "The flip claim written after a move (the squares or count it flipped) cannot be read. Write it as in spec/rgn.md, or leave it out.";
    SyntaxBadCommand = "syntax-bad-command",
        "A `[%eval ...]` or `[%emt ...]` command in a comment does not hold a number. Write evaluations and times as decimal numbers: `[%eval -2.5] [%emt 12.3]`.";
    SyntaxMissingValue = "syntax-missing-value",
        "A property name in an SGF or GGF game has no `[value]` after it. Every property is `ID[value]`.";
    SyntaxUnterminatedValue = "syntax-unterminated-value",
        "A property value `[...` has no closing `]`. Close it; write a `]` inside a value as `\\]`.";
    SyntaxBadProperty = "syntax-bad-property",
        "An SGF property name is not upper-case letters. Property names are such as `B`, `W`, `RE`, `SZ`.";
    SyntaxUnexpectedText = "syntax-unexpected-text",
        "Text inside an SGF game tree that is not a property or a node, such as a node after the variations of a tree. Remove it; a node holds `ID[value]` properties.";
    SyntaxUnterminatedGame = "syntax-unterminated-game",
        "An SGF game tree `(…` or a GGF game `(;…` is never closed before the end of the file; the file may be truncated. Close it with `)` (SGF) or `;)` (GGF).";
    SyntaxJson = "syntax-json",
        "A game in a JSON file is not valid JSON, or ends before it is complete (a truncated file). Each game is one JSON object (spec/json.md).";
    JsonBadEnvelope = "json-bad-envelope",
        "The document envelope of a JSON file names a format other than this toolkit's. Check that the file is a reversi-record JSON document (spec/json.md).";
    JsonBadValue = "json-bad-value",
        "A JSON field holds a value of the wrong type or out of range (a square off the board, a bad rules string, a negative count). The message and help name the field and what it takes.";
    JsonMissingField = "json-missing-field",
        "A JSON object leaves out a required field. spec/json.md lists the required fields of each object.";
    JsonMissingVersion = "json-missing-version",
        "The JSON document does not state its version; its games are read as version 1 (a warning). Add `\"version\"` to the envelope.";
    JsonUnknownField = "json-unknown-field",
        "A JSON object has a field the schema does not define (field names are case-sensitive). Remove it or fix its spelling; spec/json.md lists the fields.";
    JsonUnsupportedVersion = "json-unsupported-version",
        "The document or a game is written under a version this toolkit does not read, or the version is not a number. Convert it with the toolkit version that wrote it, or fix the version.";
    WthorBadHeader = "wthor-bad-header",
        "The 16-byte WTHOR header is damaged or disagrees with the file: an empty file, a game count that does not fit the size, a board size other than 8 or 10, an impossible date. The file may be truncated or not a WTHOR file.";
    WthorTruncatedRecord = "wthor-truncated-record",
        "The file ends inside a game record, some bytes short of its length. The file is truncated; the games before it are read.";
    WthorCountMismatch = "wthor-count-mismatch",
        "The header's game count disagrees with the number of records the file holds. The games in the file are read; fix the header or the download.";
    WthorBadMoveByte = "wthor-bad-move-byte",
        "A move byte is no square of the board (WTHOR writes a square as 10 x row + column). The record is damaged; the game cannot be replayed past it.";
    WthorMoveAfterEnd = "wthor-move-after-end",
        "A move slot after the end of the moves (a 0 byte) holds a move again. The record is damaged; the moves after the gap are not read.";
    WthorBadScore = "wthor-bad-score",
        "The theoretical or real score byte is larger than the number of squares on the board. The record is damaged.";
    WthorNamesUnreadable = "wthor-names-unreadable",
        "WTHOR.JOU or WTHOR.TRN (the player and tournament names) is missing next to the game file or cannot be read; players and tournaments are shown by number. Put the name files in the same directory.";
    WthorUnknownPlayer = "wthor-unknown-player",
        "A player index is beyond the names in WTHOR.JOU (a warning); the player is shown by number. Use the WTHOR.JOU that belongs to this database.";
    WthorUnknownTournament = "wthor-unknown-tournament",
        "A tournament index is beyond the names in WTHOR.TRN (a warning); the tournament is shown by number. Use the WTHOR.TRN that belongs to this database.";
    GgfGarbage = "ggf-garbage",
        "Text between GGF games that is not a game was skipped. A GGF game is `(;GM[Othello]…;)`.";
    GgfCountMismatch = "ggf-count-mismatch",
        "An archive line announces a number of games (`2 (;…;)(;…;)`) other than it holds. The games on the line are read; fix the count.";
    GgfDuplicateProperty = "ggf-duplicate-property",
        "A property appears more than once in a GGF game; the first is used. Keep one.";
    GgfNotOthello = "ggf-not-othello",
        "The GM property names a game other than Othello. This toolkit reads Othello games only.";
    GgfUnknownType = "ggf-unknown-type",
        "The TY (game type) property has a flag this toolkit does not know. GGF types are a board size with flags such as `8`, `10r`, `8a` (anti).";
    GgfBadType = "ggf-bad-type",
        "The TY (game type) property cannot be read. GGF types are a board size with flags such as `8`, `10r`, `8a` (anti).";
    GgfUnsupportedBoard = "ggf-unsupported-board",
        "The game type names a board size the engine does not play (12x12, 14x14). The game is not read.";
    GgfBadMove = "ggf-bad-move",
        "A move property is not a move: `B[f5]`, `W[d3/-2.50/1.20]` (eval and seconds used) or `B[PA]`; or a komi bid that is not a move, an eval and a time.";
    GgfBadResult = "ggf-bad-result",
        "The RE property is not a result. RE is Black's net score, with `:r`, `:t` or `:s` for resigned, time or agreed, and `?` when unfinished.";
    GgfUnknownFlag = "ggf-unknown-flag",
        "The RE property ends in a flag other than `:r`, `:t` or `:s`. Remove it or use one of those.";
    GgfBadBoard = "ggf-bad-board",
        "The BO property (the start board) cannot be read: the board type, the cells row by row (`*` black, `O` white, `-` empty) and the side to move (`*` or `O`).";
    SgfGarbage = "sgf-garbage",
        "Text between SGF game trees that is not a game was skipped. An SGF game is `(;GM[2]…)`.";
    SgfMissingGame = "sgf-missing-game",
        "The game tree has no GM property (a warning). SGF without GM means Go; the tree is read as Othello. Add `GM[2]`.";
    SgfNotOthello = "sgf-not-othello",
        "The GM property names a game other than Othello (`GM[2]`). This toolkit reads Othello games only.";
    SgfUnsupportedBoard = "sgf-unsupported-board",
        "The SZ property gives a board size the engine does not play. Supported sizes are 4, 6, 8 and 10 (square boards).";
    SgfEmptyGame = "sgf-empty-game",
        "The game tree has no nodes. A game tree is `(;` root properties, then `;` nodes with moves `)`.";
    SgfDroppedVariation = "sgf-dropped-variation",
        "The game tree holds variations; only the main line is read (a warning). Remove the variations to silence it.";
    SgfDuplicateProperty = "sgf-duplicate-property",
        "A property appears twice in the root node; the first is used. Keep one.";
    SgfBadSetup = "sgf-bad-setup",
        "A setup property (AB, AW, AE, PL) holds a value that is not a square of the board or not a player. Squares are two letters (`fe`) or a letter and a row (`f5`); players are B or W.";
    SgfUnsupportedSetup = "sgf-unsupported-setup",
        "A setup property (AB, AW, AE) appears in the middle of the game; the toolkit only reads setup in the root node, so it is not read. Move it to the root node.";
    SgfIgnoredProperty = "sgf-ignored-property",
        "A move node holds a property the reader does not read (a warning); it is dropped on conversion.";
    SgfBadMove = "sgf-bad-move",
        "A B or W property is not a move. Moves are a letter and a row (`f5`, `j10`), two letters (`fe`) or a pass (`PA`, `tt`).";
    SgfBadResult = "sgf-bad-result",
        "The RE property is not a result. RE gives the winner and the disc margin, such as `B+4`, `W+R`, `0`, `Draw` or `Void`.";
    CsvUnterminatedQuote = "csv-unterminated-quote",
        "A quoted CSV field never ends on its row. Close the field with `\"`; write a quote inside a field as `\"\"`.";
    CsvNoMovesColumn = "csv-no-moves-column",
        "No column of a CSV row holds a move string, so the row has no game. Check the delimiter, or that the file holds move strings.";
    CsvMissingField = "csv-missing-field",
        "A CSV row has fewer fields than the header, so it has no value in the moves column. Fill in the row or fix the quoting of an earlier field.";
    BoardTooShort = "board-too-short",
        "A board string (an Edax start prefix, an OBF line) has fewer squares than the board needs. A board is written row by row, one character per square.";
    BoardBadSquare = "board-bad-square",
        "A board string holds a character that is no square (`X`, `O` or `-`), or a disc outside the board of the rules. Fix the character or the rules.";
    BoardMissingSide = "board-missing-side",
        "A board string does not end with the side to move, `X` or `O`. Add it after the squares.";
    BoardBadStart = "board-bad-start",
        "A start position prefix in a move-string file only holds two players, but the rules are for 3 or 4. Use a 2-player rules pragma, or drop the prefix.";
    MovestrBadPragma = "movestr-bad-pragma",
        "A move-string file's `%% rules:` pragma cannot be read; the lines after it keep the rules they had. A pragma reads `%% rules: anti:10x10`.";
    ObfBadEntry = "obf-bad-entry",
        "An OBF line's part after the board cannot be read: `;` must follow the side to move, and each entry is a move and a score such as `G8:+18` or `PA:-4`.";
    TranscriptMissingGrid = "transcript-missing-grid",
        "Header lines with no transcript grid after them. Add the grid, or remove the headers.";
    TranscriptBadRules = "transcript-bad-rules",
        "A transcript header gives a rules string that cannot be read. spec/rules.md gives the syntax, such as `anti:10x10`.";
    TranscriptBadShape = "transcript-bad-shape",
        "A transcript grid has a number of rows or columns that fits no board (6, 8 or 10), or not the board of its rules. Every row needs one cell per column.";
    TranscriptBadCell = "transcript-bad-cell",
        "A cell of a transcript grid is neither a move number nor `.` (or a disc on a square that is not a start square). Write each cell as a number, `.` for empty, or a disc on a start square.";
    TranscriptNumberOnStartSquare = "transcript-number-on-start-square",
        "A move number is written on a square that is filled before move 1. Move the number to the square the move was played on.";
    TranscriptDuplicateNumber = "transcript-duplicate-number",
        "The same move number is written on two squares. One of them is wrong: `reversi repair` can find which.";
    TranscriptMissingNumber = "transcript-missing-number",
        "A move number between 1 and the last one is missing from the grid, so the moves after it cannot be ordered. `reversi repair` can suggest where it goes.";
    TranscriptNumberOutOfRange = "transcript-number-out-of-range",
        "A move number is larger than the board has empty squares. It is probably a typo: `reversi repair` can suggest the intended number.";
    ScenarioSyntax = "scenario-syntax",
        "A scenario line is not `key: value`, names an unknown directive, or holds a bad value (spec/scenario.md gives the syntax). Fix the line named by the message.";
    ScenarioBadRules = "scenario-bad-rules",
        "A scenario's `rules:` string cannot be read. Check it against spec/rules.md.";
    ScenarioBadBoard = "scenario-bad-board",
        "A scenario's `board:` diagram or `start:` value does not fit its rules (a wrong size, a character that is no square). Fix the diagram or the rules.";
    ScenarioInconsistent = "scenario-inconsistent",
        "A scenario directive needs another one or conflicts with one: `turn:` without `board:`, `quiet:` beyond the moves, positions without `rules:`, both `board:` and `start:`. Add or remove the directive the message names.";
    ScenarioUnexpectedRefusal = "scenario-unexpected-refusal",
        "A scenario move without `!` is refused by the engine; the message gives the reason. Mark it `!` if the refusal is expected, or fix the move.";
    ScenarioUnexpectedLegal = "scenario-unexpected-legal",
        "A scenario move marked `!` (expected to be refused) is played by the engine. Remove the `!` or fix the move.";
    ResultUnreadable = "result-unreadable",
        "A result written where people write results (a CSV column named `Result`, `Score`, `Final` or `Outcome`; a transcript's `Result:` header line) cannot be read, so the game is read without a claimed result and the text is kept as a tag of that name (a warning). Write disc counts in turn order (`36-28`, `36 - 28`, `36:28`, `20-22-22`), Black's margin (`+8`, `-8`) or the winner's (`B+8`, `W+8`), the winner (`1-0`, `0-1`, `B`, `W`, `draw`), `B+R` or `W+T` for a resignation or a loss on time, `*` when unfinished, or leave it empty.";
    SgfUnknownCharset = "sgf-unknown-charset",
        "The root node's CA property names a charset the reader does not know (a warning). The game is read as without a CA: UTF-8, lines that are not UTF-8 as Windows-1252. Known are UTF-8 (and US-ASCII), ISO-8859-1 (Latin-1, SGF's default) and Windows-1252. Convert the file to UTF-8 and write `CA[UTF-8]`.";
    SgfCharsetMismatch = "sgf-charset-mismatch",
        "The root node's CA property declares ISO-8859-1 or Windows-1252, but the game's text is UTF-8 (a warning). Some writers (this toolkit's, before it wrote `CA[UTF-8]`) copied a source's CA through. The text is read as UTF-8, which is what the bytes are; write `CA[UTF-8]` to silence it.";
    SyntaxGameTooLarge = "syntax-game-too-large",
        "A game holds more moves (1,000) or tags (1,000) than any real game: no game of any variant has more than about 400 moves. It is damage or not a game record; the game is not read (its moves and tags are not held, so memory stays bounded) and reading goes on with the next one.";
    SyntaxControlCharacter = "syntax-control-character",
        "A text value of the record (a tag, a name, a comment) holds a control character: a NUL, an escape (`\\u001b` in JSON, a raw ESC byte), a bell, a carriage return on its own, DEL or a C1 control. Terminal escape sequences hidden in a record could retitle or clear a terminal, so the reader replaces each with U+FFFD (a warning); writers never write one, and reports show them as `\\x1b`. Remove them from the source file.";
}

impl Code {
    /// Whether the validator (replaying a record) reports this code, rather than a reader,
    /// `reversi repair` or a scenario.
    pub const fn is_validator(self) -> bool {
        matches!(
            self,
            Code::IllegalMove
                | Code::IllegalPass
                | Code::MissingPass
                | Code::WrongColor
                | Code::MovesAfterEnd
                | Code::WrongFlips
                | Code::WrongPosition
                | Code::WrongResult
                | Code::Unfinished
                | Code::BadSetup
        )
    }

    /// The code named `name` (case and surrounding space ignored), if there is one.
    pub fn from_name(name: &str) -> Option<Code> {
        let name = name.trim();
        CODES
            .iter()
            .find(|(_, n, _)| n.eq_ignore_ascii_case(name))
            .map(|(c, _, _)| *c)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl PartialEq<&str> for Code {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}

impl PartialEq<str> for Code {
    fn eq(&self, other: &str) -> bool {
        self.name() == other
    }
}

impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// The explanation of the code named `code` (case ignored), if there is one.
pub fn explain(code: &str) -> Option<&'static str> {
    Code::from_name(code).map(Code::explanation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_kebab_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for (code, name, text) in CODES {
            assert!(seen.insert(*name), "{name} twice");
            assert_eq!(code.name(), *name);
            assert_eq!(Code::from_name(name), Some(*code));
            assert!(name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'));
            assert!(!text.is_empty() && text.ends_with('.'), "{name}: {text}");
        }
    }

    #[test]
    fn explain_is_specific_to_each_code() {
        assert_eq!(
            explain("ggf-bad-move"),
            Some(Code::GgfBadMove.explanation())
        );
        assert_ne!(explain("ggf-bad-move"), explain("ggf-bad-result"));
        assert_eq!(
            explain(" Illegal-Move "),
            Some(Code::IllegalMove.explanation())
        );
        assert_eq!(explain("ggf-"), None);
        assert_eq!(explain("nonsense"), None);
    }

    /// Every string literal in the workspace's sources that looks like a reader code is a [`Code`] name, so no
    /// emission can use a code `reversi explain` does not know.
    #[test]
    fn every_code_literal_in_the_sources_is_known() {
        const FAMILIES: [&str; 11] = [
            "syntax-",
            "json-",
            "wthor-",
            "ggf-",
            "sgf-",
            "csv-",
            "board-",
            "movestr-",
            "obf-",
            "transcript-",
            "scenario-",
        ];
        // Every crate of the workspace and the front ends above them.
        let mut stack = vec![
            std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../crates")),
            std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../src")),
        ];
        let mut found = 0;
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("src is readable") {
                let path = entry.expect("a directory entry").path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).expect("a source file");
                for (at, _) in text.match_indices('"') {
                    let rest = &text[at + 1..];
                    let end = rest
                        .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
                        .unwrap_or(rest.len());
                    let literal = &rest[..end];
                    let looks_like_code = rest[end..].starts_with('"')
                        && FAMILIES.iter().any(|f| literal.starts_with(f))
                        && !literal.ends_with('-');
                    if looks_like_code {
                        found += 1;
                        assert!(
                            Code::from_name(literal).is_some(),
                            "{}: `{literal}` is no Code",
                            path.display()
                        );
                    }
                }
            }
        }
        assert!(found > 0);
    }
}
