# cover.pl: reads configurations (spdgen flags, one per line) and prints the fewest it finds
# (greedy) that together still show every flag value of the list, every --ept with every
# --subgroup, and every flag value in both directions: a sample of a matrix for a test whose
# every configuration is slow (a clang++ build, two SPIR-V builds), where another runs it all.
my @c = <STDIN>;
chomp @c;
my @t = map {
    my %h;
    my @w = split / /;
    for (my $i = 0; $i < @w; $i++) {
        if ($w[$i] =~ /^--/ && $i + 1 < @w && $w[$i + 1] !~ /^--/) { $h{"$w[$i] $w[$i + 1]"} = 1; $i++ }
        else { $h{ $w[$i] } = 1 }
    }
    my %v = map { /^(--\S+) (\S+)$/ ? ($1 => $2) : ($_ => 1) } keys %h;
    $h{"E$v{'--ept'} S$v{'--subgroup'}"} = 1;
    $h{"$v{'--direction'} $_"} = 1 for grep { !/^--(fft|ept|wg|subgroup|direction) / } keys %h;
    \%h
} @c;
my %need = map { $_ => 1 } map { keys %$_ } @t;
my %used;
while (%need) {
    my ($best, $most) = (-1, 0);
    for my $i (0 .. $#c) {
        next if $used{$i};
        my $n = grep { $need{$_} } keys %{ $t[$i] };
        ($best, $most) = ($i, $n) if $n > $most;
    }
    $used{$best} = 1;
    delete $need{$_} for keys %{ $t[$best] };
}
print "$c[$_]\n" for sort { $a <=> $b } keys %used;
