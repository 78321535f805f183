import Foundation

extension PluginRegistry {
    /// Polls the directory every `interval` until the calling task is cancelled, reloading when it
    /// changes.
    ///
    /// A change is seen by size, modification time or inode, and a file is reloaded once it has stayed
    /// the same for one interval (so a file still being copied is not opened half-written). Digests
    /// then confirm which files really changed. A policy update triggers a reload on the next tick.
    public func watch(every interval: Duration) async {
        var previous: [String: FileFingerprint]?
        while !Task.isCancelled {
            let current = FileFingerprint.scan(directory)
            if rescanNeeded || (current == previous && differsFromRecords(current)) {
                await reload()
            }
            previous = current
            do {
                try await Task.sleep(for: interval)
            } catch {
                return
            }
        }
    }

    private func differsFromRecords(_ current: [String: FileFingerprint]) -> Bool {
        guard current.count == files.count else { return true }
        for (path, fingerprint) in current where files[path]?.fingerprint != fingerprint {
            return true
        }
        return false
    }
}
