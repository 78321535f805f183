import CPluginSandbox

/// Keeps the server's memory (keys, decrypted provider secrets, tokens) away from the plugin processes
/// it starts: they run as the same user, and a plugin's code must not read the server through /proc.
public enum ProcessPrivacy {
    /// Marks this process not dumpable: no core dumps, no reads of its memory or tracing by other
    /// processes of the same user. Returns whether it took effect.
    @discardableResult
    public static func keepMemoryPrivate() -> Bool {
        sy_process_keep_private() == 0
    }
}
