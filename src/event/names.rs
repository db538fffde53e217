//! The names of an event, each kept once in one buffer: an archive of a million games
//! between two million different players keeps their text and about six bytes more a name,
//! with no allocation of its own.

use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};

use super::NameId;

/// Every distinct text once, in the order first seen, by a [`NameId`].
///
/// The texts follow each other in one `String`; `ends[k]` is where the `k`-th ends. The
/// index is an open-addressing table of ids (linear probing, a power of two in size, at
/// most three quarters full), so a name costs its bytes, four for its end and about six
/// for its slot.
#[derive(Debug, Default)]
pub(super) struct Names {
    text: String,
    ends: Vec<u32>,
    /// Ids by hash; `EMPTY` where none.
    slots: Vec<u32>,
}

const EMPTY: u32 = u32::MAX;

/// The names' hash: deterministic, so that nothing depends on a random seed.
fn hash(text: &str) -> u64 {
    BuildHasherDefault::<DefaultHasher>::default().hash_one(text)
}

impl Names {
    /// How many distinct names.
    pub(super) fn len(&self) -> usize {
        self.ends.len()
    }

    /// The text of `id` (empty for an id it did not give).
    pub(super) fn get(&self, id: NameId) -> &str {
        let k = id.0 as usize;
        let Some(&end) = self.ends.get(k) else {
            return "";
        };
        let start = k.checked_sub(1).map_or(0, |p| self.ends[p]);
        self.text.get(start as usize..end as usize).unwrap_or("")
    }

    /// The id of `text`, given the first time it is seen; `None` when the names fill the
    /// 4 GiB an id can reach.
    pub(super) fn intern(&mut self, text: &str) -> Option<NameId> {
        if (self.len() + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut at = hash(text) as usize & mask;
        loop {
            match self.slots[at] {
                EMPTY => break,
                id if self.get(NameId(id)) == text => return Some(NameId(id)),
                _ => at = (at + 1) & mask,
            }
        }
        let end = u32::try_from(self.text.len() + text.len()).ok()?;
        let id = u32::try_from(self.ends.len())
            .ok()
            .filter(|&id| id != EMPTY)?;
        self.text.push_str(text);
        self.ends.push(end);
        self.slots[at] = id;
        Some(NameId(id))
    }

    /// Twice the slots (16 at first), every id placed again.
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(16);
        self.slots = vec![EMPTY; size];
        let mask = size - 1;
        for id in 0..self.ends.len() as u32 {
            let mut at = hash(self.get(NameId(id))) as usize & mask;
            while self.slots[at] != EMPTY {
                at = (at + 1) & mask;
            }
            self.slots[at] = id;
        }
    }

    /// The bytes it holds (for the memory figures).
    #[cfg(test)]
    pub(super) fn bytes(&self) -> usize {
        self.text.capacity() + 4 * (self.ends.capacity() + self.slots.capacity())
    }
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
        assert_eq!(names.get(NameId(123_456)), "");
        // The names' bytes (twice, as the buffer grows by doubling) and a few dozen a name
        // at most, however they grow.
        let text: usize = (0..10_000).map(|k| format!("Player {k}").len()).sum();
        assert!(names.bytes() <= 2 * text + 24 * 10_001, "{}", names.bytes());
    }
}
