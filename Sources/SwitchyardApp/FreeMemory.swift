import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Gives the C allocator's free memory back to the system.
///
/// glibc keeps what a thread's arena freed for that arena: the transient allocations of a start (plugin
/// scans, migrations, the first configuration load) can leave tens of MiB resident in an arena that no
/// later allocation reuses, and how much depends on which thread happened to allocate it.
public enum FreeMemory {
    private typealias Trim = @convention(c) (Int) -> Int32

    /// glibc's `malloc_trim`, looked up at run time (Swift does not see its declaration); nil elsewhere.
    private static let trim: Trim? = dlsym(nil, "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }

    /// Returns the free pages of every arena to the system; true when some were returned.
    @discardableResult
    public static func release() -> Bool {
        guard let trim else { return false }
        return trim(0) == 1
    }
}
