//! The engine's process tree, ended as a whole: the engine and everything it
//! started (a wrapper script's real engine, a background job), so that no
//! process outlives the check. The one part of the checker that differs by
//! platform.
//!
//! * Unix: the engine starts in a process group of its own (its id is the
//!   engine's pid) and the group gets SIGKILL.
//! * Windows: the engine is assigned to a job object that kills its
//!   processes when closed; a process the engine starts joins the job, and
//!   closing the job's only handle ends them all. A process the engine
//!   starts in the moment between its spawn and its assignment escapes the
//!   job (Rust's `Command` cannot start it suspended); the engine itself is
//!   still killed through its own handle.
//! * Elsewhere: the engine alone is killed (by [`std::process::Child::kill`],
//!   which the caller does in any case).

use std::process::{Child, Command};

/// Starting a command so that its process tree can be ended as a whole.
pub(crate) trait OwnTree {
    /// Makes the command's process the root of a tree of its own (on Unix,
    /// a process group whose id is its pid; elsewhere nothing is needed
    /// before the spawn).
    fn own_tree(&mut self) -> &mut Self;
}

impl OwnTree for Command {
    #[cfg(unix)]
    fn own_tree(&mut self) -> &mut Self {
        use std::os::unix::process::CommandExt;
        self.process_group(0)
    }

    #[cfg(not(unix))]
    fn own_tree(&mut self) -> &mut Self {
        self
    }
}

/// A started engine's process tree, killed at most once.
pub(crate) struct ProcessTree {
    /// The engine's process group (its id is the engine's pid, see
    /// [`OwnTree::own_tree`]); `None` once it was killed.
    #[cfg(unix)]
    group: Option<rustix::process::Pid>,
    /// The job object holding the engine; `None` once it was closed, or
    /// when the engine could not be assigned to one.
    #[cfg(windows)]
    job: Option<win32job::Job>,
}

impl ProcessTree {
    /// The tree rooted at `child`, started with [`OwnTree::own_tree`].
    #[cfg(unix)]
    pub fn adopt(child: &Child) -> ProcessTree {
        let group = i32::try_from(child.id())
            .ok()
            .and_then(rustix::process::Pid::from_raw);
        if let Some(group) = group {
            on_interrupt::register(group.as_raw_nonzero().get());
        }
        ProcessTree { group }
    }

    /// The tree rooted at `child`: a job object that kills its processes
    /// when it is closed, with the engine assigned to it. When no job can
    /// be made (or the engine cannot join it), only the engine is killed.
    #[cfg(windows)]
    pub fn adopt(child: &Child) -> ProcessTree {
        use std::os::windows::io::AsRawHandle;
        let mut limits = win32job::ExtendedLimitInfo::new();
        limits.limit_kill_on_job_close();
        let job = win32job::Job::create_with_limit_info(&limits)
            .ok()
            .filter(|job| job.assign_process(child.as_raw_handle() as isize).is_ok());
        ProcessTree { job }
    }

    /// The tree rooted at `child`: the engine alone, killed by the caller.
    #[cfg(not(any(unix, windows)))]
    pub fn adopt(_child: &Child) -> ProcessTree {
        ProcessTree {}
    }

    /// Held while an engine is spawned and adopted: a signal to the check
    /// meanwhile waits for the adoption, so that this engine is ended too.
    pub fn spawning() -> on_interrupt::Spawning {
        on_interrupt::Spawning::begin()
    }

    /// Kills every process of the tree that is still running; the engine
    /// itself is also killed and reaped by the caller. Once: afterwards no
    /// process is left in it, and its id may be reused.
    #[cfg(unix)]
    pub fn kill(&mut self) {
        if let Some(group) = self.group.take() {
            // An error (no such group: every process of it has ended) is
            // what a kill would have achieved.
            let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
            on_interrupt::forget(group.as_raw_nonzero().get());
        }
    }

    /// Kills every process of the tree that is still running, by closing
    /// the job's only handle.
    #[cfg(windows)]
    pub fn kill(&mut self) {
        self.job = None;
    }

    /// Nothing beyond the engine, which the caller kills.
    #[cfg(not(any(unix, windows)))]
    pub fn kill(&mut self) {}
}

/// Ctrl-C and SIGTERM end the engines too: the engines run in process
/// groups of their own, which the terminal's Ctrl-C does not reach, so a
/// check stopped by a signal would leave a hung engine waiting and a
/// spinning one burning a core. [`install`](on_interrupt::install) sets
/// handlers for SIGINT and SIGTERM that kill every engine's process group
/// still running and exit with 128 + the signal (130, 143), as a shell
/// reports a command ended by it.
#[cfg(unix)]
#[allow(unsafe_code)]
pub(crate) mod on_interrupt {
    use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};

    /// The most engines' groups known at once: a check runs at most 64 jobs,
    /// each with one engine at a time. A group that finds no free slot is
    /// still ended with its engine, only not by a signal.
    const SLOTS: usize = 256;

    /// The process groups of the engines running, 0 in a free slot. Atomics
    /// only, so that the signal handler may read them.
    static GROUPS: [AtomicI32; SLOTS] = [const { AtomicI32::new(0) }; SLOTS];

    /// Remembers an engine's process group, to be killed on a signal.
    pub(crate) fn register(group: i32) {
        for slot in &GROUPS {
            if slot
                .compare_exchange(0, group, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    /// Forgets a group once it was killed (its id may be reused).
    pub(crate) fn forget(group: i32) {
        for slot in &GROUPS {
            if slot
                .compare_exchange(group, 0, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                return;
            }
        }
    }

    /// The engines being spawned and not yet remembered.
    static SPAWNING: AtomicUsize = AtomicUsize::new(0);

    /// An engine being spawned ([`Spawning::begin`] to its drop): the
    /// spawning thread blocks SIGINT and SIGTERM meanwhile (so that the
    /// handler runs on another thread, which can wait for the spawn), and
    /// the handler waits until no spawn is under way. The engine starts
    /// with no signal blocked (the standard library's spawn resets the
    /// mask in the child).
    pub(crate) struct Spawning {
        old_mask: libc::sigset_t,
    }

    impl Spawning {
        pub(crate) fn begin() -> Spawning {
            // SAFETY: the sets are initialised by sigemptyset before use.
            let old_mask = unsafe {
                let mut blocked: libc::sigset_t = std::mem::zeroed();
                let mut old: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut blocked);
                libc::sigaddset(&mut blocked, libc::SIGINT);
                libc::sigaddset(&mut blocked, libc::SIGTERM);
                libc::pthread_sigmask(libc::SIG_BLOCK, &blocked, &mut old);
                old
            };
            SPAWNING.fetch_add(1, Ordering::SeqCst);
            Spawning { old_mask }
        }
    }

    impl Drop for Spawning {
        fn drop(&mut self) {
            SPAWNING.fetch_sub(1, Ordering::SeqCst);
            // SAFETY: restores the mask saved by `begin`.
            unsafe {
                libc::pthread_sigmask(libc::SIG_SETMASK, &self.old_mask, std::ptr::null_mut());
            }
        }
    }

    /// Kills every group remembered.
    fn kill_groups() {
        for slot in &GROUPS {
            let group = slot.load(Ordering::SeqCst);
            if group > 0 {
                // SAFETY: kill is async-signal-safe; a negative pid names
                // the process group, which the engine leads.
                unsafe {
                    libc::kill(-group, libc::SIGKILL);
                }
            }
        }
    }

    /// The handler: kills every group remembered, waits (at most 1 s, in
    /// steps of 5 ms) for the spawns under way to remember theirs, kills
    /// again, then exits at once with 128 + `signal`. It does only what a
    /// signal handler may (atomics, `kill`, `nanosleep`, `_exit`).
    extern "C" fn end_engines_and_exit(signal: libc::c_int) {
        kill_groups();
        let step = libc::timespec {
            tv_sec: 0,
            tv_nsec: 5_000_000,
        };
        for _ in 0..200 {
            if SPAWNING.load(Ordering::SeqCst) == 0 {
                break;
            }
            // SAFETY: nanosleep is async-signal-safe.
            unsafe {
                libc::nanosleep(&step, std::ptr::null_mut());
            }
        }
        kill_groups();
        // SAFETY: _exit is async-signal-safe and ends the process at once.
        unsafe { libc::_exit(128 + signal) }
    }

    /// Installs the handler for SIGINT and SIGTERM (once per process is
    /// enough; a second call installs the same handler again).
    pub(crate) fn install() {
        let handler: extern "C" fn(libc::c_int) = end_engines_and_exit;
        for signal in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: a zeroed sigaction is a valid empty one; the handler
            // does only async-signal-safe work.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = handler as libc::sighandler_t;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    }
}

/// Ctrl-C and SIGTERM need no handler here: closing the process closes the
/// job objects' handles, which kills the engines (Windows), or the engine
/// alone is what can be ended (elsewhere).
#[cfg(not(unix))]
pub(crate) mod on_interrupt {
    /// Nothing to install.
    pub(crate) fn install() {}

    /// Nothing to hold while an engine is spawned.
    pub(crate) struct Spawning;

    impl Spawning {
        pub(crate) fn begin() -> Spawning {
            Spawning
        }
    }

    /// Ends the spawn, as on Unix (nothing to restore here).
    impl Drop for Spawning {
        fn drop(&mut self) {}
    }
}
