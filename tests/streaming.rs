//! Readers stream: each is fed an endless input (a prefix, then the same game repeated
//! forever) and must hand out games one at a time. A reader that tried to hold the whole
//! input would never return.

use std::io::{self, BufReader, Read};

use reversi_formats::{Format, ReadOptions};

/// `prefix`, then `game` again and again, forever.
struct Endless {
    prefix: Vec<u8>,
    game: Vec<u8>,
    at: usize,
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut n = 0;
        while n < buf.len() {
            let source = if self.at < self.prefix.len() {
                &self.prefix[self.at..]
            } else {
                let i = (self.at - self.prefix.len()) % self.game.len();
                &self.game[i..]
            };
            let take = source.len().min(buf.len() - n);
            buf[n..n + take].copy_from_slice(&source[..take]);
            n += take;
            self.at += take;
        }
        Ok(n)
    }
}

/// Reads `count` games of `format` from an endless input and checks each is clean.
fn first_games(format: Format, prefix: &[u8], game: &[u8], count: usize) {
    let input = Endless {
        prefix: prefix.to_vec(),
        game: game.to_vec(),
        at: 0,
    };
    let options = ReadOptions {
        name: "endless".into(),
        ..ReadOptions::default()
    };
    let games = format.read(Box::new(BufReader::with_capacity(4096, input)), &options);
    let mut seen = 0;
    for parsed in games.take(count) {
        let parsed = parsed.expect("reading an endless input never fails");
        assert!(
            parsed.diagnostics.is_empty(),
            "{format} game {}: {:?}",
            parsed.index,
            parsed.diagnostics
        );
        let record = parsed.record.expect("every game reads");
        assert!(!record.moves.is_empty());
        seen += 1;
        assert_eq!(parsed.index, seen, "{format}: games come in order");
    }
    assert_eq!(seen, count, "{format}");
}

const GAMES: usize = 2000;

#[test]
fn rgn_and_pgn_stream() {
    let game = b"[Event \"e\"]\n[Result \"*\"]\n\n1. f5 d6 2. c3 d3 3. c4 f4\n\n";
    first_games(Format::Rgn, b"", game, GAMES);
    let thor = b"[Event \"e\"]\n[Black \"a\"]\n[White \"b\"]\n1. F5 D6\n2. C3 D3\n\n";
    first_games(Format::Rgn, b"", thor, GAMES);
}

#[test]
fn ggf_streams() {
    let game = b"1 (;GM[Othello]PB[a]PW[b]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[d6];)\n";
    first_games(Format::Ggf, b"", game, GAMES);
}

#[test]
fn sgf_streams() {
    let game = b"(;FF[4]GM[2]SZ[8];B[f5];W[d6])\n";
    first_games(Format::Sgf, b"", game, GAMES);
}

#[test]
fn json_lines_and_documents_stream() {
    let line = b"{\"rules\":\"othello\",\"moves\":[{\"move\":\"f5\"},{\"move\":\"d6\"}]}\n";
    first_games(Format::Json, b"", line, GAMES);
    let head = b"{\"format\": \"reversi-record\", \"version\": 1, \"games\": [\n";
    let item = b"{\"rules\":\"othello\",\"moves\":[{\"move\":\"f5\"}]},\n";
    first_games(Format::Json, head, item, GAMES);
}

#[test]
fn move_strings_stream() {
    first_games(Format::MoveString, b"", b"f5d6c3d3c4f4\n", GAMES);
    first_games(Format::MoveString, b"id,moves\n", b"7,f5d6c3\n", GAMES);
}

#[test]
fn wthor_streams() {
    // A header announcing a million 8x8 games of 2004, then one record repeated.
    let mut header = vec![20, 22, 6, 26];
    header.extend_from_slice(&1_000_000u32.to_le_bytes());
    header.extend_from_slice(&0u16.to_le_bytes());
    header.extend_from_slice(&2004u16.to_le_bytes());
    header.extend_from_slice(&[8, 0, 24, 0]);
    let mut record = vec![0u8; 68];
    record[6] = 32;
    record[7] = 32;
    for (i, mv) in [56u8, 64, 33, 34].into_iter().enumerate() {
        // f5 d6 c3 d3 as 10 * row + column
        record[8 + i] = mv;
    }
    first_games(Format::Wthor, &header, &record, GAMES);
}
