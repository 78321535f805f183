import NIOCore

/// Values the host binds while it serves a plugin's request for a host service.
public enum PluginTaskContext {
    /// The id of the plugin on whose behalf the current host service runs (for logs).
    @TaskLocal public static var pluginID: String?
    /// The event loop the current host service runs on, where its outbound exchange should run too (nil:
    /// any loop of the HTTP client).
    @TaskLocal public static var eventLoop: (any EventLoop)?
}
