package dev.lazarus.recovery.campaign;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The campaign's bar chart, like the paper's Fig. 7: recomputability per technique, headless PNG. */
final class RecomputabilityChart {
    private RecomputabilityChart() {
    }

    static void write(Campaign.Report report, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        CategoryChart chart = new CategoryChartBuilder().width(720).height(420)
                .title(report.application() + ": recomputability after a crash")
                .xAxisTitle("persistence").yAxisTitle("recomputability (%)").build();
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax(100.0);
        List<String> names = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        String[] labels = {"without EasyCrash", "selecting objects", "selecting regions (plan)", "best"};
        Campaign.Phase[] phases = CampaignReportWriter.phases(report);
        for (int i = 0; i < phases.length; i++) {
            names.add(labels[i]);
            values.add(100 * phases[i].recomputability());
        }
        chart.addSeries("recomputability", names, values);
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
