import Foundation
import SwitchyardStore
import Testing

@Suite("Parameters and values")
struct PGValueRoundTripTests {
    @Test func nullAndInjectionLookingTextAreStoredVerbatim() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let hostile = "Robert'); DROP TABLE notes; -- \\ \" $1 ☃️"
            let (inserted, rows) = try await pool.withConnection { connection in
                try await connection.execute("CREATE TABLE notes (id int PRIMARY KEY, body text, extra text)")
                let insert = try await connection.query(
                    "INSERT INTO notes (id, body, extra) VALUES ($1, $2, $3)", [.int(1), .text(hostile), .null])
                return (insert.affectedRows, try await connection.query("SELECT id, body, extra FROM notes").rows)
            }
            #expect(inserted == 1)
            let row = try #require(rows.first)
            #expect(rows.count == 1)
            #expect(try row.int64("id") == 1)
            #expect(try row.string("body") == hostile)
            #expect(row["extra"] == nil)
            #expect(row.optionalString("extra") == nil)
            #expect(throws: PGError.self) { try row.string("extra") }
            let isNull = try await pool.withConnection { connection in
                try await connection.query("SELECT $1::text IS NULL AS n", [.null]).first?.bool("n")
            }
            #expect(isNull == true)
        }
    }

    @Test func everyValueKindRoundTripsThroughTypedColumns() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let id = UUID()
            let instant = Date(timeIntervalSince1970: 1_700_000_000.123456)
            let bytes = (0...255).map(UInt8.init)
            let json = #"{"b": [true, null], "a": 1, "s": "x\"y"}"#
            let row = try await pool.withConnection { connection in
                try await connection.execute(
                    """
                    CREATE TABLE kinds (u uuid, ts timestamptz, j jsonb, b bytea, flag bool, i bigint,
                                        d double precision, t text)
                    """)
                try await connection.query(
                    "INSERT INTO kinds VALUES ($1::uuid, $2::timestamptz, $3::jsonb, $4::bytea, $5, $6, $7, $8)",
                    [
                        .uuid(id), .timestamp(instant), .json(json), .bytea(bytes), .bool(true), .int(.min),
                        .double(0.1),
                        .text("héllo"),
                    ])
                return try await connection.query("SELECT * FROM kinds").first
            }.driverUnwrap()
            #expect(try row.uuid("u") == id)
            #expect(try row.date("ts") == instant)
            #expect(try row.bytes("b") == bytes)
            #expect(try row.bool("flag") == true)
            #expect(try row.int64("i") == .min)
            #expect(try row.double("d") == 0.1)
            #expect(try row.string("t") == "héllo")
            let storedJSON = try row.string("j")
            let decoded = try JSONSerialization.jsonObject(with: Data(storedJSON.utf8)) as? [String: Any]
            #expect(decoded?["a"] as? Int == 1)
            #expect(decoded?["s"] as? String == "x\"y")
        }
    }

    @Test func serverSeesTheIntendedValues() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let row = try await pool.withConnection { connection in
                try await connection.query(
                    """
                    SELECT $1::timestamptz = '2023-11-14 22:13:20.123456+00'::timestamptz AS ts_ok,
                           $2::jsonb = '{"a": 1, "b": [true, null]}'::jsonb AS json_ok,
                           $3::bytea = '\\x00ff10'::bytea AS bytes_ok,
                           $4::uuid = '6ba7b810-9dad-11d1-80b4-00c04fd430c8'::uuid AS uuid_ok,
                           $5::float8 = 'Infinity'::float8 AS inf_ok,
                           $6::bigint = 9223372036854775807 AS max_ok,
                           $7::bool = false AS bool_ok
                    """,
                    [
                        .timestamp(Date(timeIntervalSince1970: 1_700_000_000.123456)),
                        .json(#"{"b":[true,null],"a":1}"#), .bytea([0x00, 0xFF, 0x10]),
                        .uuid(UUID(uuidString: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8")!), .double(.infinity),
                        .int(.max), .bool(false),
                    ]
                ).first
            }.driverUnwrap()
            for column in ["ts_ok", "json_ok", "bytes_ok", "uuid_ok", "inf_ok", "max_ok", "bool_ok"] {
                #expect(try row.bool(column), "\(column)")
            }
        }
    }

    @Test func timestampsKeepMicrosecondsAcrossTimeZonesAndEras() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let instants = [
                Date(timeIntervalSince1970: 1_700_000_000.000001),
                Date(timeIntervalSince1970: -1_234_567_890.654321),
                Date(timeIntervalSince1970: 4_102_444_800.999999),
            ]
            let read = try await pool.withConnection { connection in
                var read: [Date] = []
                for instant in instants {
                    read.append(
                        try await connection.query("SELECT $1::timestamptz AS ts", [.timestamp(instant)]).first
                            .driverUnwrap().date("ts"))
                }
                return read
            }
            for (written, back) in zip(instants, read) {
                #expect(abs(written.timeIntervalSince(back)) < 0.000_000_5, "\(written) vs \(back)")
            }
            // Output in a non-UTC session zone is parsed with its offset.
            let shifted = try await pool.withConnection { connection in
                try await connection.execute("BEGIN; SET LOCAL TimeZone TO 'Asia/Kolkata'")
                let row = try await connection.query(
                    "SELECT $1::timestamptz AS ts, $1::timestamptz::text AS raw", [.timestamp(instants[0])]
                ).first.driverUnwrap()
                try await connection.execute("COMMIT")
                return (try row.date("ts"), try row.string("raw"))
            }
            #expect(shifted.1.hasSuffix("+05:30"))
            #expect(abs(shifted.0.timeIntervalSince(instants[0])) < 0.000_000_5)
        }
    }

    @Test func nulCharacterInTextIsRefusedWithoutEchoingIt() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let error = await #expect(throws: PGError.self) {
                try await pool.withConnection { connection in
                    try await connection.query("SELECT $1::text", [.int(1), .text("secret\u{0}value")])
                }
            }
            #expect(error?.code == .invalidParameter)
            #expect(error?.message.contains("$2") == true)
            #expect(error?.description.contains("secret") == false)
        }
    }

    @Test func badInputIsReportedWithoutTheValue() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let error = await #expect(throws: PGError.self) {
                try await pool.withConnection { connection in
                    try await connection.query("SELECT $1::uuid", [.text("4111111111111111")])
                }
            }
            #expect(error?.sqlState == "22P02")
            #expect(error?.code == .server)
            #expect(error?.description.contains("4111111111111111") == false)
            #expect(error?.message.contains("uuid") == true)
        }
    }

    @Test func typedAccessorsRejectWrongContent() async throws {
        try await DriverFixture.withPool(size: 1) { pool in
            let row = try await pool.withConnection { connection in
                try await connection.query("SELECT 'abc' AS t, NULL::int AS n, 42 AS i").first.driverUnwrap()
            }
            #expect(row.columns == ["t", "n", "i"])
            #expect(throws: PGError.self) { try row.int64("t") }
            #expect(throws: PGError.self) { try row.uuid("t") }
            #expect(throws: PGError.self) { try row.date("t") }
            #expect(throws: PGError.self) { try row.bytes("t") }
            #expect(throws: PGError.self) { try row.int64("n") }
            #expect(throws: PGError.self) { try row.int64("missing") }
            #expect(row.optionalInt64("n") == nil)
            #expect(row.optionalInt64("i") == 42)
            #expect(row.optionalDate("t") == nil)
        }
    }
}
