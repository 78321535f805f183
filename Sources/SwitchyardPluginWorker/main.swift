import PluginWorkerCore

#if canImport(Glibc)
    import Glibc
#endif

// `switchyard-plugin-worker --plugin FILE --fd N [--log-level L]`: runs one plugin image for the server that
// started it, over the connected socket N, dropping the plugin's log lines below level L (`SY_LOG_*`, default
// 0: all). Started by the server only (`PluginExecutable.workerPath`); not for people.

/// The plugin file, the socket and the log level named on the command line, or `nil` when they are not.
func parse(_ arguments: [String]) -> (file: String, fd: Int32, logLevel: Int32)? {
    guard arguments.count % 2 == 0 else { return nil }
    var file: String?
    var fd: Int32 = 3
    var logLevel: Int32 = 0
    for index in stride(from: 0, to: arguments.count, by: 2) {
        switch arguments[index] {
        case "--plugin": file = arguments[index + 1]
        case "--fd": fd = Int32(arguments[index + 1]) ?? -1
        case "--log-level": logLevel = Int32(arguments[index + 1]) ?? -1
        default: return nil
        }
    }
    guard let file, fd >= 0, (0...5).contains(logLevel) else { return nil }
    return (file, fd, logLevel)
}

guard let (file, fd, logLevel) = parse(Array(CommandLine.arguments.dropFirst())) else {
    let usage = "usage: switchyard-plugin-worker --plugin FILE --fd N [--log-level 0-5] (started by the server)\n"
    _ = usage.withCString { write(2, $0, strlen($0)) }
    exit(64)
}
exit(PluginWorker.serve(file: file, fd: fd, logLevel: logLevel))
