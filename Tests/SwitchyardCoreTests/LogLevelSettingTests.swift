import Logging
import Testing

@testable import SwitchyardCore

struct LogLevelSettingTests {
    @Test func levelsAreReadInAnyCase() throws {
        #expect(try LogLevelSetting.parse("info") == .info)
        #expect(try LogLevelSetting.parse("INFO") == .info)
        #expect(try LogLevelSetting.parse("Debug") == .debug)
        #expect(try LogLevelSetting.parse(" warning ") == .warning)
        #expect(try LogLevelSetting.parse("WARN") == .warning)
        #expect(try LogLevelSetting.parse("critical") == .critical)
        for level in Logger.Level.allCases {
            #expect(try LogLevelSetting.parse(level.rawValue.uppercased()) == level)
        }
    }

    @Test func unsetOrEmptyMeansInfo() throws {
        #expect(try LogLevelSetting.parse(nil) == .info)
        #expect(try LogLevelSetting.parse("") == .info)
    }

    @Test func nonsenseIsRefusedNamingTheLevels() {
        for bad in ["verbose", "inf", "1", "info,debug"] {
            #expect(throws: InvalidLogLevel(value: bad), "\(bad)") { try LogLevelSetting.parse(bad) }
        }
        let message = InvalidLogLevel(value: "verbose").description
        #expect(message.contains("LOG_LEVEL=verbose") && message.contains("trace") && message.contains("critical"))
    }
}
