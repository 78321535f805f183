import Foundation
import Testing

@testable import SwitchyardBench
@testable import SwitchyardCommands

#if canImport(FoundationXML)
    import FoundationXML
#endif

struct BenchPlotTests {
    /// Counts elements while parsing; a parse error means the document is not well-formed XML.
    final class Counter: NSObject, XMLParserDelegate {
        var elements: [String: Int] = [:]
        var text = ""
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            elements[name, default: 0] += 1
        }
        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
    }

    func parse(_ svg: String) -> (ok: Bool, counter: Counter) {
        let parser = XMLParser(data: Data(svg.utf8))
        let counter = Counter()
        parser.delegate = counter
        return (parser.parse(), counter)
    }

    @Test func thePlotIsWellFormedSVGWithABarPairPerMeasuredSeries() {
        let svg = BenchPlot(steps: [BenchSamples.full, BenchSamples.bare]).render()
        let (ok, counter) = parse(svg)
        #expect(ok)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        // Background + 3 legend swatches + (3 series of the full step + 1 of the bare one) × 2 bars.
        #expect(counter.elements["rect"] == 1 + 3 + (3 + 1) * 2)
        #expect(counter.elements["title"] == 4)
        #expect(counter.text.contains("provider alone"))
        #expect(counter.text.contains("c=8"))
    }

    @Test func namesAreEscaped() {
        var step = BenchSamples.bare
        step.flow = "a<b & \"c\""
        let (ok, counter) = parse(BenchPlot(steps: [step]).render())
        #expect(ok)
        #expect(counter.text.contains("a<b & \"c\""))
    }

    @Test func theAxisSpansEveryPercentileInPowersOfTen() {
        let plot = BenchPlot(steps: [BenchSamples.full])
        let (low, high) = plot.axisRange()
        #expect(low == 0.1)
        #expect(high == 100)
        #expect(BenchPlot(steps: []).axisRange() == (0.1, 10))
        #expect(parse(BenchPlot(steps: []).render()).ok)
    }
}
