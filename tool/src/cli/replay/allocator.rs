//! The C allocator's share of `replay`'s memory budget. With several
//! threads, glibc's malloc gives each thread its own arena and keeps the
//! memory a thread freed for that thread: `--jobs 4` on four large files,
//! replayed one after the other under the budget but by different threads,
//! ends up holding four files' worth of freed memory. One arena, and the
//! freed memory given back to the system after each file is reported, keep
//! the peak to the budget's files (see `scripts/replay-memory.sh`).
//!
//! Elsewhere (another C library, Windows, macOS) both are no-ops: their
//! allocators do not keep per-thread arenas this way.

#![allow(unsafe_code)]

/// Makes every thread share one malloc arena; called before `replay`
/// starts its threads.
pub(super) fn share_one_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of glibc's allocator; it is
    // called before replay starts any thread, and a refusal (0) leaves the
    // allocator as it was, which is still correct, only larger.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// Gives the memory freed so far back to the system; called after each
/// file's reports are written and released.
pub(super) fn give_back_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free pages of glibc's arenas, under
    // the allocator's own locks; it is safe to call from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}
