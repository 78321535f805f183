import CLibPQ
import Foundation

extension PGConnection {
    /// Where the results of a request end.
    enum ResultEnd {
        /// At the first `NULL` from `PQgetResult` (one request, possibly of several statements).
        case null
        /// At the pipeline's sync (`PGRES_PIPELINE_SYNC`); the `NULL`s between statements are kept.
        case pipelineSync
    }

    /// Hands a request to libpq with `send`, sends it and reads its results, waiting on the socket through
    /// the connection's loop whenever libpq would block. The caller owns (and must clear) the results.
    ///
    /// A failure to send or to read closes the session: what the server did with the request is unknown.
    func exchange(until end: ResultEnd = .null, _ send: (OpaquePointer) -> Int32) async throws -> [OpaquePointer?] {
        let conn = try liveHandle()
        var results: [OpaquePointer?] = []
        counters.roundTrips += 1
        var action = machine.sent(queued: send(conn) == 1)
        while true {
            switch action {
            case .flush:
                let flushed = PQflush(conn)
                action = machine.flushed(
                    flushed == 0 ? .done : flushed == 1 ? .more : .failed, busy: PQisBusy(conn) == 1)
            case .wait(let interest, let deadline):
                let wake = await loop.wait(for: PQsocket(conn), interest, until: deadline)
                action = machine.woke(wake, now: .now)
            case .consumeInput:
                let ok = PQconsumeInput(conn) == 1
                action = machine.consumed(ok: ok, busy: PQisBusy(conn) == 1)
            case .readResult:
                let result = PQgetResult(conn)
                let more: Bool
                switch end {
                case .null:
                    if let result { results.append(result) }
                    more = result != nil
                case .pipelineSync:
                    results.append(result)
                    more = result.map { PQresultStatus($0) != PGRES_PIPELINE_SYNC } ?? true
                }
                action = machine.readResult(more: more, busy: PQisBusy(conn) == 1)
            case .finished:
                return results
            case .fail, .pollConnect, .connected:
                for result in results { PQclear(result) }
                let message = Self.connectionErrorMessage(conn)
                close()
                throw PGError(
                    code: .connectionFailed,
                    message: message.isEmpty ? "the connection to PostgreSQL was lost" : message)
            }
        }
    }

    /// The one result of a single statement as a ``PGResult`` (or its error); every result is cleared.
    static func single(_ results: [OpaquePointer?], connection conn: OpaquePointer) throws -> PGResult {
        guard let last = try every(results, connection: conn).last else {
            throw PGError(code: .unexpectedResult, message: "the statement returned no result")
        }
        return last
    }

    /// Every result as a ``PGResult``; the first error is thrown once all were cleared.
    static func every(_ results: [OpaquePointer?], connection conn: OpaquePointer) throws -> [PGResult] {
        var converted: [PGResult] = []
        var failure: (any Error)?
        for result in results {
            guard let result else { continue }
            guard failure == nil else {
                PQclear(result)
                continue
            }
            do {
                converted.append(try makeResult(result, connection: conn))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return converted
    }

    /// How long opening a session may take: libpq's non-blocking connect ignores `connect_timeout`, so the
    /// connection enforces it, per host of a multi-host connection string (libpq tries them in turn), with
    /// a `connect_timeout` in the string winning over `seconds`; 0 or less means no limit.
    static func connectTimeout(connectionString: String, seconds: Int) -> Duration {
        var timeout = seconds
        var hosts = 1
        var errorMessage: UnsafeMutablePointer<CChar>?
        if let options = PQconninfoParse(connectionString, &errorMessage) {
            defer { PQconninfoFree(options) }
            var option = options
            while let keyword = option.pointee.keyword {
                let name = String(cString: keyword)
                if let value = option.pointee.val.map({ String(cString: $0) }) {
                    if name == "connect_timeout", let parsed = Int(value.trimmingCharacters(in: .whitespaces)) {
                        timeout = parsed
                    } else if name == "host" || name == "hostaddr" {
                        hosts = max(hosts, value.split(separator: ",", omittingEmptySubsequences: false).count)
                    }
                }
                option += 1
            }
        } else if let errorMessage {
            PQfreemem(errorMessage)
        }
        guard timeout > 0 else { return .seconds(86_400 * 365) }
        let total = timeout.multipliedReportingOverflow(by: hosts)
        return .seconds(total.overflow ? Int.max / 2 : total.partialValue)
    }
}

extension PGConnectionMachine.ConnectPoll {
    /// libpq's `PostgresPollingStatusType`.
    init(_ status: PostgresPollingStatusType) {
        switch status {
        case PGRES_POLLING_READING: self = .reading
        case PGRES_POLLING_WRITING: self = .writing
        case PGRES_POLLING_OK: self = .ok
        default: self = .failed
        }
    }
}
