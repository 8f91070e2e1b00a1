//===- TimelineSvg.cpp - Buggy vs fixed timelines (--timeline) ------------===//

#include "TimelineSvg.h"
#include "Format.h"

#include <algorithm>
#include <cmath>

namespace cuda_async_verify {

namespace {

constexpr double Width = 1200;
constexpr double LabelWidth = 250;
constexpr double PlotWidth = Width - LabelWidth - 30;
constexpr double LaneHeight = 14;
constexpr double LaneGap = 2;
constexpr const char *StreamColours[] = {"#4e79a7", "#f28e2b", "#59a14f",
                                         "#b07aa1", "#76b7b2", "#edc948",
                                         "#ff9da7", "#9c755f"};
constexpr unsigned ColourCount =
    sizeof(StreamColours) / sizeof(StreamColours[0]);

std::string num(double X) { return format("%.2f", X); }

/// One traced run to draw, labelled in two lines.
struct Row {
  std::string Label;
  std::string Detail;
  const Timeline *Trace;
};

struct Section {
  std::string Title;
  std::string Subtitle;
  std::vector<Row> Rows;
};

double niceStep(double Span) {
  double Raw = Span / 6;
  if (!(Raw > 0))
    return 1;
  double Power = std::pow(10, std::floor(std::log10(Raw)));
  for (double Factor : {1.0, 2.0, 5.0})
    if (Raw <= Factor * Power)
      return Factor * Power;
  return 10 * Power;
}

double firstStart(const Timeline &T) {
  double First = T.Activities.empty() ? 0 : T.Activities.front().StartMs;
  for (const Activity &A : T.Activities)
    First = std::min(First, A.StartMs);
  return First;
}

class Canvas {
public:
  void text(double X, double Y, const std::string &S, const char *Extra = "") {
    Body += "<text x=\"" + num(X) + "\" y=\"" + num(Y) + "\"" + Extra + ">" +
            escapeXml(S) + "</text>\n";
  }
  void line(double X1, double Y1, double X2, double Y2, const char *Colour) {
    Body += "<line x1=\"" + num(X1) + "\" y1=\"" + num(Y1) + "\" x2=\"" +
            num(X2) + "\" y2=\"" + num(Y2) + "\" stroke=\"" + Colour + "\"/>\n";
  }
  void swatch(double X, double Y, const char *Colour) {
    Body += "<rect x=\"" + num(X) + "\" y=\"" + num(Y) +
            "\" width=\"10\" height=\"10\" fill=\"" + Colour + "\"/>\n";
  }
  void bar(double X, double Y, double W, const Activity &A,
           const std::string &Tip) {
    const char *Fill = StreamColours[A.Stream % ColourCount];
    // Pageable copies are outlined in red: the copy the check reports.
    std::string Stroke = A.Memory == HostMemory::Pageable
                             ? " stroke=\"#d00\" stroke-width=\"1.5\""
                             : "";
    Body += "<rect x=\"" + num(X) + "\" y=\"" + num(Y) + "\" width=\"" +
            num(std::max(W, 0.5)) + "\" height=\"" + num(LaneHeight) +
            "\" fill=\"" + Fill + "\"" + Stroke + "><title>" + escapeXml(Tip) +
            "</title></rect>\n";
  }

  std::string Body;
};

void drawSection(const Section &S, Canvas &C, double &Y) {
  double Span = 0;
  for (const Row &R : S.Rows)
    Span = std::max(Span, R.Trace->spanMs());
  if (!(Span > 0))
    Span = 1;
  double Scale = PlotWidth / Span;
  Y += 22;
  C.text(10, Y, S.Title, " font-weight=\"bold\" font-size=\"14\"");
  if (!S.Subtitle.empty()) {
    Y += 16;
    C.text(10, Y, S.Subtitle, " font-size=\"11\" fill=\"#444\"");
  }
  Y += 8;
  for (const Row &R : S.Rows) {
    double Origin = firstStart(*R.Trace);
    C.text(10, Y + LaneHeight - 2, R.Label, " font-size=\"12\"");
    C.text(10, Y + 2 * LaneHeight + 2, R.Detail,
           " font-size=\"11\" fill=\"#444\"");
    const auto &Lanes = PipelineEngines;
    for (int Lane = 0; Lane < 3; ++Lane) {
      double LaneY = Y + Lane * (LaneHeight + LaneGap);
      C.text(LabelWidth - 8, LaneY + LaneHeight - 3, engineName(Lanes[Lane]),
             " font-size=\"10\" text-anchor=\"end\" fill=\"#666\"");
      C.line(LabelWidth, LaneY + LaneHeight, LabelWidth + PlotWidth,
             LaneY + LaneHeight, "#eee");
      for (const Activity &A : R.Trace->Activities) {
        if (A.Where != Lanes[Lane])
          continue;
        std::string Tip = std::string(engineName(A.Where)) + ", stream " +
                          std::to_string(A.Stream) + ": " +
                          num(A.StartMs - Origin) + " to " +
                          num(A.EndMs - Origin) + " ms";
        if (A.Where != Engine::Kernel)
          Tip += ", " + std::to_string(A.Bytes) + " bytes, " +
                 hostMemoryName(A.Memory) + " host memory";
        C.bar(LabelWidth + (A.StartMs - Origin) * Scale, LaneY,
              A.durationMs() * Scale, A, Tip);
      }
    }
    Y += 3 * (LaneHeight + LaneGap) + 10;
  }
  // The time axis shared by the section's rows.
  C.line(LabelWidth, Y, LabelWidth + PlotWidth, Y, "#888");
  double Step = niceStep(Span);
  for (double T = 0; T <= Span * 1.0001; T += Step) {
    double X = LabelWidth + T * Scale;
    C.line(X, Y, X, Y + 4, "#888");
    C.text(X, Y + 15, format("%g ms", T),
           " font-size=\"10\" text-anchor=\"middle\" fill=\"#444\"");
  }
  Y += 24;
}

std::string variantDetail(const VariantResult &V) {
  std::string Detail = roleName(V.Kind);
  if (V.Timed)
    Detail += ", " + num(V.TimeMs.Median) + " ms";
  return Detail;
}

} // namespace

std::string escapeXml(const std::string &Text) {
  std::string Out;
  for (char Ch : Text) {
    switch (Ch) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    default:
      Out += Ch;
    }
  }
  return Out;
}

std::string renderTimelineSvg(const Report &R) {
  std::vector<Section> Sections;
  for (const CheckResult &Check : R.Checks) {
    Section S;
    S.Title = Check.CheckId +
              (Check.Scenario.empty() ? "" : " (" + Check.Scenario + ")");
    S.Subtitle = std::string(verdictName(Check.Outcome.Kind)) + ": " +
                 Check.Outcome.Reason;
    for (const VariantResult &V : Check.Variants)
      if (V.Traced)
        S.Rows.push_back({V.Name, variantDetail(V), &V.Trace});
    if (!S.Rows.empty())
      Sections.push_back(std::move(S));
  }
  for (const Reproduction &Rep : R.Reproductions) {
    Section S;
    S.Title = "seed " + Rep.Seed + ": " + Rep.Title;
    S.Subtitle = Rep.Conclusion;
    for (const auto &[Name, Trace] : Rep.Timelines) {
      // "pipelined, 4 streams (measured)": what, then how it was obtained.
      size_t Paren = Name.find(" (");
      S.Rows.push_back({Name.substr(0, Paren),
                        Paren == std::string::npos
                            ? ""
                            : Name.substr(Paren + 2, Name.size() - Paren - 3),
                        &Trace});
    }
    if (!S.Rows.empty())
      Sections.push_back(std::move(S));
  }

  Canvas C;
  double Y = 20;
  C.text(10, Y,
         "cuda-async-verify timelines: " + R.Env.Gpu + ", " + R.Env.DateUtc,
         " font-weight=\"bold\" font-size=\"16\"");
  Y += 18;
  C.text(10, Y,
         "Bars are CUPTI activity records, coloured by stream; each section "
         "shares one time axis. Red outline: copy from pageable memory.",
         " font-size=\"11\" fill=\"#444\"");
  // The stream colours, for as many streams as any run used.
  unsigned Streams = 0;
  for (const Section &S : Sections)
    for (const Row &R : S.Rows)
      Streams = std::max(Streams, R.Trace->streamCount());
  Y += 16;
  for (unsigned Stream = 0; Stream < Streams && Stream < ColourCount;
       ++Stream) {
    double X = 10 + Stream * 80;
    C.swatch(X, Y - 9, StreamColours[Stream]);
    C.text(X + 14, Y, "stream " + std::to_string(Stream), " font-size=\"11\"");
  }
  for (const Section &S : Sections)
    drawSection(S, C, Y);
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
         num(Width) + "\" height=\"" + num(Y + 10) +
         "\" font-family=\"sans-serif\">\n"
         "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n" +
         C.Body + "</svg>\n";
}

} // namespace cuda_async_verify
