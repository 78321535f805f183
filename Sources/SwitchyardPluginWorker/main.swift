import PluginWorkerCore

#if canImport(Glibc)
    import Glibc
#endif

// `switchyard-plugin-worker --plugin FILE --fd N`: runs one plugin image for the server that started it,
// over the connected socket N. Started by the server only (`PluginExecutable.workerPath`); not for people.

/// The plugin file and the socket named on the command line, or `nil` when they are not.
func parse(_ arguments: [String]) -> (file: String, fd: Int32)? {
    guard arguments.count % 2 == 0 else { return nil }
    var file: String?
    var fd: Int32 = 3
    for index in stride(from: 0, to: arguments.count, by: 2) {
        switch arguments[index] {
        case "--plugin": file = arguments[index + 1]
        case "--fd": fd = Int32(arguments[index + 1]) ?? -1
        default: return nil
        }
    }
    guard let file, fd >= 0 else { return nil }
    return (file, fd)
}

guard let (file, fd) = parse(Array(CommandLine.arguments.dropFirst())) else {
    let usage = "usage: switchyard-plugin-worker --plugin FILE --fd N (started by the server)\n"
    _ = usage.withCString { write(2, $0, strlen($0)) }
    exit(64)
}
exit(PluginWorker.serve(file: file, fd: fd))
