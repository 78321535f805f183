import Foundation
import SwitchyardCommands

/// A hand-written SVG of the latency percentiles per flow and concurrency: Switchyard, the provider alone
/// and the pgbench payment ceiling side by side. Each bar reaches p99 (light), its solid part p50, and a
/// tick marks p90; the latency axis is logarithmic so a 1 ms and a 300 ms bar both stay readable.
package struct BenchPlot {
    package struct Series: Sendable {
        var name: String
        var color: String
        var light: String
        var measure: @Sendable (BenchStep) -> LoadMeasure?
    }

    package static let series = [
        Series(name: "Switchyard", color: "#1f5fa8", light: "#a9c4e6", measure: { $0.switchyard }),
        Series(name: "provider alone", color: "#2e8b57", light: "#afd8bf", measure: { $0.provider }),
        Series(name: "pgbench payment ceiling", color: "#b5651d", light: "#ecc9a6", measure: { $0.pgbench }),
    ]

    package var steps: [BenchStep]
    package var title = "switchyard bench: latency p50 (solid), p90 (tick), p99 (bar top)"

    package static let barWidth = 18.0
    package static let groupGap = 26.0
    package static let left = 64.0
    package static let top = 56.0
    package static let plotHeight = 300.0

    /// The SVG document.
    package func render() -> String {
        let groupWidth = Self.barWidth * Double(Self.series.count) + Self.groupGap
        let width = max(Self.left + groupWidth * Double(max(steps.count, 1)) + 24, 640)
        let height = Self.top + Self.plotHeight + 70
        let (low, high) = axisRange()
        func y(_ ms: Double) -> Double {
            let clamped = min(max(ms, low), high)
            let fraction = (log10(clamped) - log10(low)) / (log10(high) - log10(low))
            return Self.top + Self.plotHeight * (1 - fraction)
        }
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.format(width))" height="\(Self.format(height))" \
            viewBox="0 0 \(Self.format(width)) \(Self.format(height))" font-family="sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(Self.format(Self.left))" y="20" font-size="14">\(Self.escape(title))</text>

            """
        // Legend.
        for (index, series) in Self.series.enumerated() {
            let x = Self.left + Double(index) * 170
            out += "<rect x=\"\(Self.format(x))\" y=\"30\" width=\"12\" height=\"12\" fill=\"\(series.color)\"/>"
            out += "<text x=\"\(Self.format(x + 16))\" y=\"40\">\(Self.escape(series.name))</text>\n"
        }
        // Axis with a grid line per power of ten.
        var decade = low
        while decade <= high * 1.0001 {
            let lineY = Self.format(y(decade))
            out += "<line x1=\"\(Self.format(Self.left))\" y1=\"\(lineY)\" x2=\"\(Self.format(width - 16))\" "
            out += "y2=\"\(lineY)\" stroke=\"#dddddd\"/>"
            out += "<text x=\"\(Self.format(Self.left - 6))\" y=\"\(lineY)\" text-anchor=\"end\" "
            out += "dominant-baseline=\"middle\">\(Self.format(decade)) ms</text>\n"
            decade *= 10
        }
        let baseline = Self.top + Self.plotHeight
        out += "<line x1=\"\(Self.format(Self.left))\" y1=\"\(Self.format(baseline))\" "
        out += "x2=\"\(Self.format(width - 16))\" y2=\"\(Self.format(baseline))\" stroke=\"#333333\"/>\n"
        // Bars.
        for (groupIndex, step) in steps.enumerated() {
            let groupX = Self.left + Self.groupGap / 2 + Double(groupIndex) * groupWidth
            for (seriesIndex, series) in Self.series.enumerated() {
                guard let measure = series.measure(step), measure.count > 0 else { continue }
                let x = groupX + Double(seriesIndex) * Self.barWidth
                let latency = measure.latency
                out += bar(x: x, from: baseline, to: y(latency.p99), fill: series.light)
                out += bar(x: x, from: baseline, to: y(latency.p50), fill: series.color)
                let tickY = Self.format(y(latency.p90))
                out += "<line x1=\"\(Self.format(x))\" y1=\"\(tickY)\" x2=\"\(Self.format(x + Self.barWidth - 2))\" "
                out += "y2=\"\(tickY)\" stroke=\"#000000\" stroke-width=\"1.5\"/>"
                out += "<title>\(Self.escape(series.name)): p50 \(Self.format(latency.p50)) ms, "
                out += "p90 \(Self.format(latency.p90)) ms, p99 \(Self.format(latency.p99)) ms</title>\n"
            }
            let labelX = Self.format(groupX + Self.barWidth * Double(Self.series.count) / 2)
            out += "<text x=\"\(labelX)\" y=\"\(Self.format(baseline + 16))\" text-anchor=\"middle\">"
            out += "\(Self.escape(step.flow))</text>"
            out += "<text x=\"\(labelX)\" y=\"\(Self.format(baseline + 30))\" text-anchor=\"middle\">"
            out += "c=\(step.concurrency)</text>\n"
        }
        out += "</svg>\n"
        return out
    }

    /// Powers of ten around every plotted latency (at least 0.1 ms to 10 ms).
    package func axisRange() -> (Double, Double) {
        var values: [Double] = []
        for step in steps {
            for series in Self.series {
                guard let measure = series.measure(step), measure.count > 0 else { continue }
                values += [measure.latency.p50, measure.latency.p90, measure.latency.p99].filter { $0 > 0 }
            }
        }
        let low = min(0.1, pow(10, (log10(values.min() ?? 1)).rounded(.down)))
        let high = max(10, pow(10, (log10(values.max() ?? 1)).rounded(.up)))
        return (low, high)
    }

    private func bar(x: Double, from bottom: Double, to top: Double, fill: String) -> String {
        "<rect x=\"\(Self.format(x))\" y=\"\(Self.format(top))\" width=\"\(Self.format(Self.barWidth - 2))\" "
            + "height=\"\(Self.format(max(bottom - top, 0)))\" fill=\"\(fill)\"/>"
    }

    /// A number with at most two decimals, without trailing zeros.
    package static func format(_ value: Double) -> String {
        var text = String(format: "%.2f", value)
        while text.contains(".") && (text.hasSuffix("0") || text.hasSuffix(".")) { text.removeLast() }
        return text
    }

    /// `text` safe inside an XML element or attribute.
    package static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
