//! The names of an event, each kept once in one buffer: an archive of a million games
//! between two million different players keeps their text and about seven bytes more a
//! name, with no allocation of its own.

use std::hash::BuildHasher;

use super::keys::mix;
use super::NameId;

/// Every distinct text once, in the order first seen, by a [`NameId`]: where it starts in
/// one buffer.
///
/// Each text follows its length (LEB128: one byte below 128) in one buffer. The index is
/// an open-addressing table of ids (linear probing, a power of two in size, at most three
/// quarters full), so a name costs its bytes, one for its length and about six for its
/// slot.
#[derive(Debug)]
pub(super) struct Names {
    bytes: Vec<u8>,
    len: usize,
    /// Ids by hash; `EMPTY` where none.
    slots: Vec<u32>,
    /// The hash's seed, random for each run: where a name's slot is changes nothing that is
    /// reported (ids go in the order names are first seen), and a file cannot be made to
    /// put every name in one place.
    seed: u64,
}

impl Default for Names {
    fn default() -> Names {
        Names {
            bytes: Vec::new(),
            len: 0,
            slots: Vec::new(),
            seed: std::collections::hash_map::RandomState::new().hash_one(0x5eed_u64),
        }
    }
}

const EMPTY: u32 = u32::MAX;

/// A name's hash: its length and bytes, eight a step, through splitmix64's finaliser, from
/// the seed.
fn hash(seed: u64, text: &str) -> u64 {
    hash_bytes(seed, text.as_bytes())
}

/// [`hash`] of a text's bytes.
fn hash_bytes(seed: u64, text: &[u8]) -> u64 {
    let mut state = seed ^ text.len() as u64;
    let mut chunks = text.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        state = mix(state ^ u64::from_le_bytes(word));
    }
    let mut word = [0; 8];
    word[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    mix(state ^ u64::from_le_bytes(word))
}

impl Names {
    /// How many distinct names.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The text of `id` (empty for an id it did not give).
    pub(super) fn get(&self, id: NameId) -> &str {
        std::str::from_utf8(self.bytes_of(id)).unwrap_or_default()
    }

    /// Whether `id`'s text is `text` (compared as bytes: every text it holds is one a
    /// `&str` gave).
    pub(super) fn is(&self, id: NameId, text: &str) -> bool {
        self.bytes_of(id) == text.as_bytes()
    }

    /// The bytes of `id`'s text.
    fn bytes_of(&self, id: NameId) -> &[u8] {
        let at = id.0 as usize;
        let (mut len, mut shift, mut k) = (0usize, 0, at);
        while let Some(&byte) = self.bytes.get(k) {
            len |= usize::from(byte & 0x7f) << shift;
            k += 1;
            if byte & 0x80 == 0 || shift > 28 {
                break;
            }
            shift += 7;
        }
        self.bytes.get(k..k.saturating_add(len)).unwrap_or_default()
    }

    /// The id of `text`, given the first time it is seen; `None` when the names fill the
    /// 4 GiB an id can reach.
    pub(super) fn intern(&mut self, text: &str) -> Option<NameId> {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut at = hash(self.seed, text) as usize & mask;
        loop {
            match self.slots[at] {
                EMPTY => break,
                id if self.is(NameId(id), text) => return Some(NameId(id)),
                _ => at = (at + 1) & mask,
            }
        }
        let id = u32::try_from(self.bytes.len())
            .ok()
            .filter(|&id| id != EMPTY)?;
        let mut len = text.len();
        while len >= 0x80 {
            self.bytes.push(len as u8 | 0x80);
            len >>= 7;
        }
        self.bytes.push(len as u8);
        self.bytes.extend_from_slice(text.as_bytes());
        self.slots[at] = id;
        self.len += 1;
        Some(NameId(id))
    }

    /// Twice the slots (16 at first), every id placed again.
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(16);
        let mut slots = vec![EMPTY; size];
        let mask = size - 1;
        for &id in self.slots.iter().filter(|&&id| id != EMPTY) {
            let mut at = hash_bytes(self.seed, self.bytes_of(NameId(id))) as usize & mask;
            while slots[at] != EMPTY {
                at = (at + 1) & mask;
            }
            slots[at] = id;
        }
        self.slots = slots;
    }

    /// The bytes it holds (for the memory figures).
    #[cfg(test)]
    pub(super) fn bytes(&self) -> usize {
        self.bytes.capacity() + 4 * self.slots.capacity()
    }
}

/// A name lower-cased with its spacing collapsed; a round's number without leading zeros.
pub(super) fn normalise(text: &str, round: bool) -> String {
    let words: Vec<String> = text.split_whitespace().map(str::to_lowercase).collect();
    let joined = words.join(" ");
    if round {
        if let Ok(n) = joined.parse::<u64>() {
            return n.to_string();
        }
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_kept_once_and_found_again() {
        let mut names = Names::default();
        let mut ids = Vec::new();
        for k in 0..10_000 {
            ids.push(names.intern(&format!("Player {k}")).unwrap());
        }
        assert_eq!(names.len(), 10_000);
        for (k, id) in ids.iter().enumerate() {
            assert_eq!(names.get(*id), format!("Player {k}"));
            assert_eq!(names.intern(&format!("Player {k}")), Some(*id));
        }
        // The empty name is a name; an id it never gave has no text.
        let empty = names.intern("").unwrap();
        assert_eq!(names.intern(""), Some(empty));
        assert_eq!((names.get(empty), names.len()), ("", 10_001));
        assert_eq!(names.get(NameId(1 << 30)), "");
        // Long names have longer lengths.
        let long = "é".repeat(40_000);
        let id = names.intern(&long).unwrap();
        assert_eq!(names.get(id), long);
        assert_eq!(names.intern(&long), Some(id));
        // The names' bytes (twice, as the buffer grows by doubling) and a few dozen a name
        // at most, however they grow.
        let text: usize = (0..10_000).map(|k| format!("Player {k}").len()).sum();
        assert!(
            names.bytes() <= 2 * (text + 80_000) + 24 * 10_002,
            "{}",
            names.bytes()
        );
    }
}
