//! A list that keeps its first `N` items inline and moves to the heap past
//! them: an instruction's operands and attachments.
//!
//! Why not `smallvec`: its `SmallVec<[T; N]>` is invariant in `T`, which
//! would make `Body<'a>` invariant and force one lifetime on every analysis
//! that holds a body beside other borrowed tables. `ArrayVec` is covariant,
//! and this wrapper only adds the heap fallback.

use arrayvec::ArrayVec;
use std::ops::Deref;

#[derive(Clone, Debug, PartialEq)]
pub enum SmallList<T, const N: usize> {
    Inline(ArrayVec<T, N>),
    Heap(Vec<T>),
}

impl<T, const N: usize> Default for SmallList<T, N> {
    fn default() -> Self {
        SmallList::Inline(ArrayVec::new())
    }
}

impl<T, const N: usize> SmallList<T, N> {
    pub fn new() -> Self {
        Self::default()
    }

    #[inline(always)]
    pub fn push(&mut self, item: T) {
        match self {
            SmallList::Inline(inline) => {
                if let Err(full) = inline.try_push(item) {
                    self.spill(full.element());
                }
            }
            SmallList::Heap(heap) => heap.push(item),
        }
    }

    /// Moves the full inline items to the heap, then adds `item`. Kept out
    /// of `push`, which runs for every operand.
    #[cold]
    #[inline(never)]
    fn spill(&mut self, item: T) {
        if let SmallList::Inline(inline) = self {
            let mut heap = Vec::with_capacity(2 * N.max(2));
            heap.extend(inline.drain(..));
            heap.push(item);
            *self = SmallList::Heap(heap);
        }
    }

    pub fn pop(&mut self) -> Option<T> {
        match self {
            SmallList::Inline(inline) => inline.pop(),
            SmallList::Heap(heap) => heap.pop(),
        }
    }
}

impl<T, const N: usize> Deref for SmallList<T, N> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        match self {
            SmallList::Inline(inline) => inline,
            SmallList::Heap(heap) => heap,
        }
    }
}

impl<T, const N: usize> Extend<T> for SmallList<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        for item in items {
            self.push(item);
        }
    }
}

impl<T, const N: usize> FromIterator<T> for SmallList<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut list = Self::new();
        list.extend(items);
        list
    }
}

impl<'s, T, const N: usize> IntoIterator for &'s SmallList<T, N> {
    type Item = &'s T;
    type IntoIter = std::slice::Iter<'s, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: PartialEq, const N: usize, const M: usize> PartialEq<[T; M]> for SmallList<T, N> {
    fn eq(&self, other: &[T; M]) -> bool {
        **self == other[..]
    }
}

#[cfg(test)]
mod tests {
    use super::SmallList;

    #[test]
    fn spills_to_the_heap_in_order() {
        let mut l: SmallList<u32, 2> = SmallList::new();
        l.extend([1, 2]);
        assert!(matches!(l, SmallList::Inline(_)));
        l.push(3);
        assert!(matches!(l, SmallList::Heap(_)));
        assert_eq!(&*l, &[1, 2, 3]);
        assert_eq!(l.pop(), Some(3));
        assert_eq!(l.iter().sum::<u32>(), 3);
    }
}
